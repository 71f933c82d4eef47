import { readFile } from 'node:fs/promises';
import { expect, mock, test } from './fixtures/app.ts';

const statute = new URL('../public/demo/datasets/statute-appeals.dataset.jsonl', import.meta.url);

async function datasetFile(n: number) {
  const lines = (await readFile(statute, 'utf8')).trim().split('\n');
  return { name: `statute-${n}.dataset.jsonl`, mimeType: 'application/x-ndjson', buffer: Buffer.from(`${lines.slice(0, n + 1).join('\n')}\n`) };
}

/**
 * Evaluate is a view beside the designer, as a person uses it: start a batch, go back to the
 * designer while it runs (the top bar shows it), come back to find the ticks and options as
 * they were, cancel from the top bar; then the run list keeps the batch's runs under the batch,
 * apart from the person's own run.
 */
test('a batch keeps going and keeps its setup while the person works in the designer, and cancels from the top bar', async ({ app, page }) => {
  test.setTimeout(150_000);
  await app.open();
  // Through the mock, each call half a second: the batch outlasts the walk below.
  await app.addMockProfile('Slow mock', { input: 0.4, output: 1.6 });
  await mock.enqueue(Array.from({ length: 60 }, () => ({ fault: 'delay', delayMs: 500 })));

  await page.getByTestId('eval.open').click();
  await expect(page.getByTestId('eval.view')).toBeVisible();
  await expect(page.getByTestId('eval.open')).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('eval.import').setInputFiles(await datasetFile(8));
  await expect(page.getByTestId('eval.dataset')).toContainText('8 items');
  await page.getByTestId('eval.chain.demo-question-conditioned-summary').click();
  await page.getByTestId('eval.controls').click();
  await page.getByLabel('Runs at once').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('2');
  await expect(page.getByTestId('eval.estimate')).toContainText('Before it runs: 2 variants');

  // The baseline it runs is a single prompt given the document whole (the chain names BM25
  // selection, which is not one): the view says so, and shows the prompt it sends.
  await expect(page.getByTestId('eval.notes')).toContainText('demo-bm25-then-single-prompt, is not a single prompt');
  const baseline = page.getByTestId('eval.baseline.demo-question-conditioned-summary:baseline');
  await baseline.locator('summary').click();
  await expect(baseline).toContainText('Question-conditioned summary, then answer (generated single prompt)');
  await expect(page.getByTestId('eval.baselinePrompt.demo-question-conditioned-summary:baseline')).toContainText(/Document:\s+\{document\}/);
  await expect(page.getByTestId('eval.baselineFills.demo-question-conditioned-summary:baseline')).toContainText('{document} ← the document input, whole');

  await page.getByTestId('eval.start').click();
  await expect(page.getByTestId('eval.progressText')).toContainText(/^[1-9]\d* \/ 16 done/, { timeout: 60_000 });
  await expect(page.getByTestId('topbar.eval.progressText')).toContainText('/ 16 done');
  await app.screenshot('evaluate-view-running');
  await page.setViewportSize({ width: 1280, height: 720 });
  await app.screenshot('evaluate-view-running-1280');
  await page.setViewportSize({ width: 1440, height: 900 });

  // To the designer: the canvas is back, and the top bar still shows the batch going.
  await page.getByTestId('view.designer').click();
  await expect(page.getByTestId('eval.view')).toHaveCount(0);
  await expect(page.getByTestId('canvas')).toBeVisible();
  await app.openChain('demo-summarise-then-answer');
  await expect(page.getByTestId('topbar.eval.progressText')).toContainText(/^\d+ \/ 16 done/);
  await app.screenshot('evaluate-topbar-designer');
  await page.setViewportSize({ width: 1280, height: 720 });
  await app.screenshot('evaluate-topbar-designer-1280');
  await page.setViewportSize({ width: 1440, height: 900 });

  // Back through the top bar: ticks, dataset and options as they were left.
  await page.getByTestId('topbar.eval.show').click();
  await expect(page.getByTestId('eval.view')).toBeVisible();
  await expect(page.getByTestId('eval.chain.demo-question-conditioned-summary')).toBeChecked();
  await expect(page.getByTestId('eval.chain.demo-summarise-then-answer')).not.toBeChecked();
  await expect(page.getByTestId('eval.controls')).toBeChecked();
  await expect(page.getByLabel('Runs at once')).toHaveValue('2');
  await expect(page.getByTestId('eval.dataset')).toContainText('8 items');
  await expect(page.getByTestId('eval.progressText')).toContainText('/ 16 done');

  // Cancel from the top bar, from the designer.
  await page.getByTestId('view.designer').click();
  await page.getByTestId('topbar.eval.cancel').click();
  await expect(page.getByTestId('topbar.eval')).toHaveCount(0, { timeout: 30_000 });
  await expect.poll(() => page.workers().filter((w) => w.url().includes('eval.worker')).length).toBe(0);
  await page.getByTestId('eval.open').click();
  await expect(page.getByTestId('eval.resume')).toBeVisible();
  // The table names the variants by their chains; the id is in the tooltip.
  const row = page.getByTestId('eval.row.demo-question-conditioned-summary:baseline').getByRole('button');
  await expect(row).toHaveText('Question-conditioned summary, then answer (generated single prompt)');
  await expect(row).toHaveAttribute('title', /^demo-question-conditioned-summary:baseline: GENERATED/);

  // The run list: the person's own run counted alone; the batch's runs under the batch, folded.
  await mock.reset();
  await page.getByTestId('view.designer').click();
  await app.openChain('demo-question-conditioned-summary');
  await app.run();
  await app.expectRunStatus('succeeded');
  const runs = page.locator('.runs');
  await expect(runs.locator('.section-title .count')).toHaveText('1');
  const batch = runs.locator('[data-testid^="runs.batch."]');
  await expect(batch).toHaveCount(1);
  await expect(batch).toContainText(/\d+ runs?/);
  await expect(batch.locator('[data-testid^="runs.item."]')).toHaveCount(0);
  await batch.getByRole('button', { expanded: false }).click();
  await expect(batch.locator('[data-testid^="runs.item."]').first()).toBeVisible();
  await app.screenshot('evaluate-run-groups');
});
