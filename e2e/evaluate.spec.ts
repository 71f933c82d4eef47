import { readFile } from 'node:fs/promises';
import { expect, mock, test } from './fixtures/app.ts';

const statute = new URL('../public/demo/datasets/statute-appeals.dataset.jsonl', import.meta.url);

/** The first `n` questions of the demo dataset, as a file a person would pick. */
async function datasetFile(n: number) {
  const lines = (await readFile(statute, 'utf8')).trim().split('\n');
  return { name: `statute-${n}.dataset.jsonl`, mimeType: 'application/x-ndjson', buffer: Buffer.from(`${lines.slice(0, n + 1).join('\n')}\n`) };
}

/**
 * Choosing a design as a person would: import a dataset, tick two of the demo designs and the
 * controls, read the bill before paying it, run, read one table, open the run behind an item.
 */
test('compare two designs with their controls over a dataset, then open a run behind the table', async ({ app, page }) => {
  test.setTimeout(150_000);
  await app.open();
  await page.getByTestId('eval.open').click();
  await expect(page.getByTestId('eval.view')).toBeVisible();
  await page.getByTestId('eval.import').setInputFiles(await datasetFile(4));
  await expect(page.getByTestId('eval.dataset')).toContainText('4 items');

  await page.getByTestId('eval.chain.demo-summarise-then-answer').click();
  await page.getByTestId('eval.chain.demo-select-quotes-then-answer').click();
  await page.getByTestId('eval.controls').click();
  await expect(page.getByTestId('eval.estimate')).toContainText(/model calls, .* input tokens, at most .* output tokens/);
  await expect(page.getByTestId('eval.notes')).toContainText('no ablation of answer: it reads 2 values');
  // Two chains, each with its baseline, and the summary stage's identity control and ablation.
  await expect(page.getByTestId('eval.estimate')).toContainText('Before it runs: 6 variants');
  await app.screenshot('evaluate-setup');

  await page.getByTestId('eval.start').click();
  const table = page.getByTestId('eval.table');
  await expect(table).toBeVisible({ timeout: 90_000 });
  // The summary loses the day counts; the selection keeps them; the ablation without the summary recovers them.
  await expect(page.getByTestId('eval.row.demo-select-quotes-then-answer')).toContainText('100.0%');
  await expect(page.getByTestId('eval.row.demo-summarise-then-answer')).toContainText('0.0%');
  await expect(page.getByTestId('eval.row.demo-summarise-then-answer:ablate-summarise')).toContainText('ablation');
  await expect(page.getByTestId('eval.row.demo-summarise-then-answer:baseline')).toContainText('baseline');
  await expect(page.getByTestId('eval.row.demo-summarise-then-answer:identity-summarise')).toContainText('identity');
  await app.screenshot('evaluate-table');
  await page.setViewportSize({ width: 1280, height: 720 });
  await app.screenshot('evaluate-table-1280');
  await page.setViewportSize({ width: 1440, height: 900 });

  const csv = page.waitForEvent('download');
  await page.getByTestId('eval.exportCsv').click();
  const text = await readFile(await (await csv).path(), 'utf8');
  expect(text.split('\r\n')[0]).toContain('"variant","name","kind","n","accuracy"');
  // Rows read as the chains' names; the id is the row's key and in its tooltip.
  expect(text).toContain('"demo-summarise-then-answer:ablate-summarise","Summarise, then answer from the summary (without summarise)","ablation"');
  await expect(page.getByTestId('eval.row.demo-summarise-then-answer').getByRole('button')).toHaveText('Summarise, then answer from the summary');

  // A row opens what moved its number: the steps, the boundaries with their stage metrics, the compounding arithmetic.
  await page.getByTestId('eval.row.demo-select-quotes-then-answer').getByRole('button').click();
  const details = page.getByTestId('eval.details');
  await expect(details.getByTestId('eval.steps')).toContainText('select');
  const selectSeam = details.locator('[data-testid^="eval.boundary.select."]').first();
  await expect(selectSeam).toContainText('100.0%');
  // The selection outputs section ids: recall on the gold sections is measured there.
  await expect(selectSeam.locator('td').nth(3)).toHaveText(/^\d\.\d\d$/);
  await expect(selectSeam.locator('.seam-answer').first()).toHaveText('✓');
  await app.screenshot('evaluate-details');

  await page.getByTestId('eval.row.demo-summarise-then-answer').getByRole('button').click();
  await expect(details.getByTestId('eval.boundary.summarise.answer')).toContainText('0.0%');
  await expect(details.getByTestId('eval.compounding')).toContainText(/predict \d+\.\d% end to end; measured 0\.0%/);
  await expect(page.getByTestId('eval.items')).toContainText('missing: 120-day period');
  await page.getByTestId('eval.openRun.redetermination-filing').click();
  await expect(page.getByTestId('replay')).toBeVisible();
  await expect(page.getByTestId('replay.boundary')).toContainText('summarise');
});

test('cancel an evaluation and resume it: finished items are not run again', async ({ app, page }) => {
  test.setTimeout(150_000);
  await app.open();
  // Through the mock, each call half a second: slow enough to cancel half way.
  await app.addMockProfile('Slow mock', { input: 0.4, output: 1.6 });
  await mock.enqueue(Array.from({ length: 16 }, () => ({ fault: 'delay', delayMs: 500 })));
  await page.getByTestId('eval.open').click();
  await page.getByTestId('eval.import').setInputFiles(await datasetFile(8));
  await page.getByTestId('eval.chain.demo-summarise-then-answer').click();
  const concurrency = page.getByLabel('Runs at once');
  await concurrency.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('1');
  await page.getByTestId('eval.start').click();
  await expect(page.getByTestId('eval.progressText')).toContainText(/^[2-7] \/ 8 done/, { timeout: 60_000 });
  // The batch runs in its own worker, off the thread that draws the canvas.
  expect(page.workers().map((w) => w.url()).filter((url) => url.includes('eval.worker'))).toHaveLength(1);
  await page.getByTestId('eval.cancel').click();
  await expect(page.getByTestId('eval.resume')).toBeVisible({ timeout: 30_000 });
  // The batch's worker ends with the batch.
  await expect.poll(() => page.workers().filter((w) => w.url().includes('eval.worker')).length).toBe(0);
  const finishedBefore = Number((await page.getByTestId('eval.table').locator('tbody tr td').nth(3).textContent()) ?? '0');
  expect(finishedBefore).toBeGreaterThan(0);
  expect(finishedBefore).toBeLessThan(8);

  // A reload in between: the batch is stored, and Resume picks it up.
  await page.reload();
  await expect(page.getByTestId('canvas')).toBeVisible();
  await page.getByTestId('eval.open').click();
  const requestsBefore = (await mock.requests()).length;
  await page.getByTestId('eval.resume').click();
  await expect(page.getByTestId('eval.row.demo-summarise-then-answer').locator('td').nth(3)).toHaveText('8', { timeout: 60_000 });
  // Two calls per item, and only for the items the cancelled batch had not finished; the item
  // cut short continues its run, so a summary it had finished is not called again (one fewer).
  const calls = (await mock.requests()).length - requestsBefore;
  expect(calls).toBeLessThanOrEqual(2 * (8 - finishedBefore));
  expect(calls).toBeGreaterThanOrEqual(2 * (8 - finishedBefore) - 1);
  await page.getByLabel('Volume a month').click();
  await page.keyboard.type('400000');
  await expect(page.getByTestId('eval.row.demo-summarise-then-answer')).toContainText('$');
  await page.getByTestId('view.designer').click();
  await app.openChain('demo-summarise-then-answer');
  // Exactly one stored run per item: none of the finished ones ran twice. They sit under their
  // batch, apart from the person's own runs (none here).
  await expect(page.locator('.runs .section-title .count')).toHaveText('0');
  await expect(page.locator('[data-testid^="runs.batch."]')).toHaveCount(1);
  await expect(page.locator('[data-testid^="runs.batch."]')).toContainText('8 runs');
});

/**
 * Building a dataset from runs, as a person would: run the summarise demo, open the run, add it
 * to a new dataset with the output corrected by typing, then evaluate on that dataset.
 */
test('add a run to a dataset with the corrected output, then evaluate on it', async ({ app, page }) => {
  test.setTimeout(120_000);
  await app.open();
  await app.openChain('demo-summarise-then-answer');
  await app.run();
  await app.expectRunStatus('succeeded');
  await app.openLatestRun();
  await page.getByTestId('replay.addToDataset').click();
  const dialog = page.getByTestId('addToDataset.dialog');
  await expect(dialog).toBeVisible();
  await app.typeInto(page.getByTestId('addToDataset.name'), 'Corrected appeals');
  await app.typeInto(page.getByTestId('addToDataset.id'), 'appeal-days');
  // The summary design answered vaguely; the person writes what it should have said.
  await app.typeInto(page.getByTestId('addToDataset.output'), '{"answer": "Within 180 calendar days."}');
  await page.getByTestId('addToDataset.facts').click();
  await page.keyboard.type('180 calendar days');
  await page.getByTestId('addToDataset.route').click();
  await expect(page.getByTestId('addToDataset.route')).toHaveValue('final');
  await app.screenshot('add-to-dataset');
  await page.getByTestId('addToDataset.save').click();
  await expect(dialog).toBeHidden();

  // A second time with the same id is refused, saying why, and stores nothing.
  await page.getByTestId('replay.addToDataset').click();
  await page.getByTestId('addToDataset.dataset').selectOption({ label: 'Corrected appeals · 1 items' });
  await app.typeInto(page.getByTestId('addToDataset.id'), 'appeal-days');
  await page.getByTestId('addToDataset.save').click();
  await expect(page.getByTestId('addToDataset.error')).toContainText('"appeal-days" is used by an earlier line');
  await page.getByTestId('addToDataset.dialog').getByRole('button', { name: 'Cancel' }).click();

  await page.getByTestId('eval.open').click();
  await expect(page.getByTestId('eval.dataset')).toContainText('Corrected appeals');
  await expect(page.getByTestId('eval.dataset')).toContainText('1 items');
  await page.getByTestId('eval.chain.demo-summarise-then-answer').click();
  await page.getByTestId('eval.start').click();
  // The expected facts from the correction: the summary design misses them.
  await expect(page.getByTestId('eval.row.demo-summarise-then-answer')).toContainText('0.0%', { timeout: 60_000 });
});

/**
 * Abstention calibration as a person does it (seed 000): a batch where the chain abstains on
 * items the dataset does not settle; the reviewer marks each flagged item, and the arithmetic
 * (fire rate × false share × volume × handling minutes) follows every mark.
 */
test('review the flagged items of a batch and read the abstention arithmetic change', async ({ app, page }) => {
  test.setTimeout(150_000);
  await app.open();
  await page.getByTestId('eval.open').click();
  // The enum design ends in an abstain step when the selection finds no evidence.
  // Two real questions, and two the statute cannot answer whose expected answer says nothing of abstaining.
  const lines = [
    { id: 'appeal-days', inputs: { question: 'How many days do I have to request a reconsideration?' }, expected: { facts: ['180-day period'] } },
    { id: 'redetermination', inputs: { question: 'How many days do I have to request a redetermination?' }, expected: { facts: ['120-day period'] } },
    { id: 'sourdough', inputs: { question: 'How do I bake sourdough bread?' }, expected: { facts: ['bake at 230 degrees'] } },
    { id: 'eiffel', inputs: { question: 'How tall is the Eiffel tower?' }, expected: { facts: ['330 metres'] } },
  ];
  await page.getByTestId('eval.import').setInputFiles({ name: 'flagged.dataset.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(`${lines.map((l) => JSON.stringify(l)).join('\n')}\n`) });
  await expect(page.getByTestId('eval.dataset')).toContainText('4 items');
  await page.getByTestId('eval.chain.demo-select-quotes-enum').click();
  await page.getByTestId('eval.start').click();
  const row = page.getByTestId('eval.row.demo-select-quotes-enum');
  await expect(row).toBeVisible({ timeout: 90_000 });
  await expect(row).toContainText('50.0%');
  await row.getByRole('button').click();

  const steps = page.getByTestId('eval.abstention.steps');
  await expect(steps).toContainText('fire rate: 2 of 4 items abstained or escalated = 50.0%');
  await expect(steps).toContainText('no flagged item has been reviewed yet');
  const queue = page.getByTestId('eval.reviewQueue');
  await expect(queue.locator('li')).toHaveCount(2);

  await page.getByLabel('Volume a month').click();
  await page.keyboard.type('400000');
  const minutes = page.getByTestId('eval.handlingMinutes');
  await minutes.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('6');

  // The reviewer: sourdough was rightly left unanswered; the tower, say, could have been answered.
  await page.getByTestId('eval.review.noAnswer.sourdough').click();
  await expect(steps).toContainText('false-abstention share: 0 of 1 flagged items reviewed could have been answered = 0.0%');
  await page.getByTestId('eval.review.answerable.eiffel').click();
  await expect(steps).toContainText('false-abstention share: 1 of 2 flagged items reviewed could have been answered = 50.0%');
  await expect(steps).toContainText('of all traffic: 50.0% × 50.0% = 25.0%');
  await expect(steps).toContainText('a month: 25.0% × 400,000 questions = 100,000 unnecessary escalations');
  await expect(steps).toContainText('handling: 100,000 × 6 min = 10,000 hours a month');
  // A mark stays on the list and can be changed.
  await expect(page.getByTestId('eval.review.eiffel')).toContainText('marked answerable');
  await page.getByTestId('eval.review.noAnswer.eiffel').click();
  await expect(steps).toContainText('false-abstention share: 0 of 2 flagged items reviewed could have been answered = 0.0%');
  await page.getByTestId('eval.review.answerable.eiffel').click();
  await expect(steps).toContainText('1 of 2 flagged items reviewed could have been answered');
  await expect(page.getByTestId('eval.review.answerable.eiffel')).toHaveAttribute('aria-pressed', 'true');
  await queue.scrollIntoViewIfNeeded();
  await app.screenshot('evaluate-abstention');
  await page.setViewportSize({ width: 1280, height: 720 });
  await queue.scrollIntoViewIfNeeded();
  await app.screenshot('evaluate-abstention-1280');

  // The marks are stored with the results: a reload shows the same arithmetic.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.reload();
  await page.getByTestId('eval.open').click();
  await page.getByTestId('eval.row.demo-select-quotes-enum').getByRole('button').click();
  await expect(page.getByTestId('eval.abstention.steps')).toContainText('1 of 2 flagged items reviewed could have been answered');
});
