import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures/app.ts';

/**
 * The pictures in README.md and docs/, taken from the built app at 1440×900 so they show it as it
 * is. Run after a UI change: `npm run docs:screens` (it builds the app, then runs this spec).
 * Each waits for what the picture is meant to show, so a picture of the wrong thing fails here.
 */

test('docs/screenshot.png: the summarise-then-answer replay at the boundary that lost the deadlines', async ({ app, page }) => {
  await app.open();
  await app.openChain('demo-summarise-then-answer');
  await app.run();
  await app.expectRunStatus(/succeeded/i);
  await app.openLatestRun();
  await app.stepToBoundary(/\(summarise\)\s*→.*\(answer\)/);
  await expect(page.getByTestId('replay.source')).toContainText('180-day period');
  await expect(page.getByTestId('replay.intermediate')).toContainText(/promptly/);
  await app.docsScreenshot('screenshot');
});

test('docs/designer.png: the support-ticket chain on the canvas', async ({ app, page }) => {
  await app.open();
  await app.openChain('demo-support-ticket');
  await page.getByTestId('designer.fit').click();
  await expect(page.getByTestId('canvas').locator('.react-flow__node').first()).toBeVisible();
  await app.docsScreenshot('designer');
});

test('docs/evaluate-table.png: two designs and their controls over four questions', async ({ app, page }) => {
  test.setTimeout(150_000);
  const lines = (await readFile(new URL('../public/demo/datasets/statute-appeals.dataset.jsonl', import.meta.url), 'utf8')).trim().split('\n');
  await app.open();
  await page.getByTestId('eval.open').click();
  await page.getByTestId('eval.import').setInputFiles({ name: 'statute-4.dataset.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(`${lines.slice(0, 5).join('\n')}\n`) });
  await expect(page.getByTestId('eval.dataset')).toContainText('4 items');
  await page.getByTestId('eval.chain.demo-summarise-then-answer').click();
  await page.getByTestId('eval.chain.demo-select-quotes-then-answer').click();
  await page.getByTestId('eval.controls').click();
  await page.getByTestId('eval.start').click();
  await expect(page.getByTestId('eval.table')).toBeVisible({ timeout: 90_000 });
  await expect(page.getByTestId('eval.row.demo-select-quotes-then-answer')).toContainText('100.0%');
  await expect(page.getByTestId('eval.row.demo-summarise-then-answer:identity-summarise')).toContainText('identity');
  await app.docsScreenshot('evaluate-table');
});
