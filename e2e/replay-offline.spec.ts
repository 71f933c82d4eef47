import { APP_URL } from '../playwright.config.ts';
import { expect, MOCK_URL, test } from './fixtures/app.ts';

/**
 * Battery B10 in the browser: once a run is stored, replaying it, stepping through every
 * boundary and diffing it against its parent need nothing but the app's own origin. Every
 * request to any other origin is counted (and refused) from before the reload to the end.
 */
const SUMMARY = 'A member may request reconsideration of a redetermination within the 180-day period after receiving notice of it.';

test('a stored run replays, steps through every boundary and diffs after a reload with 0 requests off the app origin', async ({ app, page }) => {
  await app.open();
  await app.openChain('demo-summarise-then-answer');
  await app.run();
  await app.expectRunStatus(/succeeded/i);
  await app.expectStoredReplay();
  // A second stored run to diff against: the rerun from a step, with an edited output.
  await app.forkWithOutput('summarise', { summary: SUMMARY });

  const appOrigin = new URL(APP_URL).origin;
  const offOrigin: string[] = [];
  // page.route sees what the page fetches; the request event also sees what a route can miss
  // (beacons, preloads); either counts once per URL seen.
  await page.route('**', async (route) => {
    const url = route.request().url();
    if (new URL(url).origin === appOrigin) return route.continue();
    offOrigin.push(`route ${url}`);
    return route.abort('blockedbyclient');
  });
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith('data:') && !url.startsWith('blob:') && new URL(url).origin !== appOrigin) offOrigin.push(`request ${url}`);
  });
  page.on('websocket', (ws) => offOrigin.push(`websocket ${ws.url()}`));
  // The counter counts: a request the page makes to another origin (the mock) is seen, refused.
  const reached = await page.evaluate((url) => fetch(url).then(() => true, () => false), `${MOCK_URL}/v1/models`);
  expect(reached).toBe(false);
  expect(offOrigin.some((r) => r.includes('/v1/models'))).toBe(true);
  offOrigin.length = 0;

  await page.reload();
  await expect(page.getByTestId('canvas')).toBeVisible();
  await expect(page.locator('.library-row.is-open')).toHaveCount(1);
  await app.openLatestRun();
  await app.expectStoredReplay();

  // Every boundary forward, then back to the first: the replay's scrubber end to end.
  const next = page.getByTestId('replay.next');
  const prev = page.getByTestId('replay.prev');
  const seen = new Set<string>();
  seen.add((await page.getByTestId('replay.boundary').textContent()) ?? '');
  for (let i = 0; i < 50 && (await next.isEnabled()); i++) {
    await next.click();
    seen.add((await page.getByTestId('replay.boundary').textContent()) ?? '');
  }
  await expect(next).toBeDisabled();
  expect(seen.size).toBeGreaterThan(1);
  for (let i = 0; i < 50 && (await prev.isEnabled()); i++) await prev.click();
  await expect(prev).toBeDisabled();

  await page.getByTestId('replay.compareParent').click();
  await expect(page.getByTestId('diff')).toBeVisible();
  await expect(page.getByTestId('diff.step.summarise')).toBeVisible();
  // Let anything lazily loaded by the diff or the replay settle before counting.
  await page.waitForLoadState('networkidle');
  expect(offOrigin).toEqual([]);
});
