import { expect, test } from './fixtures/app.ts';

/**
 * Each UI text that explains a concept links to the docs section that explains it (issue 31,
 * item 4): the pages are part of the built app (same origin, nothing fetched from elsewhere),
 * and every link lands on a heading that exists.
 */
test('the replay, Compounding and Evaluate link to the docs sections that explain them', async ({ app, page, context }) => {
  test.setTimeout(120_000);
  await app.open();
  await app.openChain('demo-summarise-then-answer');
  await page.getByTestId('designer.compounding').click();
  await expect(page.getByTestId('compounding').getByTestId('doc.concepts.compounding')).toBeVisible();
  await page.keyboard.press('Escape');
  await app.run();
  await app.expectRunStatus(/succeeded/i);
  await app.openLatestRun();
  await app.stepToBoundary(/\(summarise\)\s*→.*\(answer\)/);
  for (const id of ['doc.concepts.boundaries-and-lossy-handoffs', 'doc.concepts.facts-and-named-conditions', 'doc.concepts.sufficiency']) {
    await expect(page.getByTestId('replay').getByTestId(id)).toBeVisible();
  }
  await page.getByTestId('eval.open').click();
  await expect(page.getByTestId('doc.evaluating.controls')).toBeVisible();

  // Every link the app shows lands on a heading of a page the build carries.
  const hrefs = await page.locator('a.doc-link').evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
  for (const href of new Set(hrefs)) {
    const [url, anchor] = href.split('#');
    const res = await page.request.get(url!);
    expect(res.ok(), url).toBe(true);
    const html = await res.text();
    expect(html, `${href}: the heading it names`).toContain(`id="${anchor}"`);
    expect(html, 'no script, nothing from another origin').not.toMatch(/<script|src="https?:/i);
  }

  // Clicked, it opens the section in a new tab and the app keeps its place.
  const opened = context.waitForEvent('page');
  await page.getByTestId('doc.evaluating.controls').click();
  const docs = await opened;
  await docs.waitForLoadState();
  expect(docs.url()).toMatch(/\/docs\/evaluating\.html#controls$/);
  await expect(docs.locator('h2#controls')).toHaveText('Controls');
  await docs.setViewportSize({ width: 1280, height: 720 });
  await docs.screenshot({ path: 'test-results/screens/docs-page-1280.png' });
  await expect(page.getByTestId('eval.view')).toBeVisible();
});
