import { readFile } from 'node:fs/promises';
import { expect, mock, test } from './fixtures/app.ts';

const statute = new URL('../public/demo/datasets/statute-appeals.dataset.jsonl', import.meta.url);

/**
 * A sufficiency judge on a real endpoint (the mock server, scripted): on the demo model it cannot
 * be asked (the rule-based check stands); on an endpoint profile it judges the boundaries the
 * person labelled first, and its verdict stays "not trusted yet" beside its agreement with those
 * labels, here a judge that disagrees with the person. Its calls are counted apart from the run's.
 */
test('a judge disagreeing with your label is shown with its agreement and not trusted', async ({ app, page }) => {
  await app.open();
  await app.openChain('demo-summarise-then-answer');
  await app.run();
  await app.expectRunStatus(/succeeded/i);
  await app.openLatestRun();
  await app.stepToBoundary(/\(summarise\)\s*→.*\(answer\)/);
  // On the offline demo model there is no judge to ask: the rule-based estimate stands alone.
  await expect(page.getByTestId('replay.sufficiencyEstimate')).toBeVisible();
  const ask = page.getByTestId('replay.judge.ask');
  await expect(ask).toHaveCount(0);

  const bar = page.getByTestId('replay.sufficiency');
  await bar.getByLabel('Not derivable').click();
  await bar.getByRole('button', { name: 'Save label' }).click();
  await expect(page.getByTestId('replay.sufficiencyLabel')).toContainText('Labelled not derivable');

  await app.addMockProfile('Judge endpoint');
  await mock.reset();
  await mock.enqueue([{ content: { derivable: true, reason: 'The summary says "appeal promptly", which answers the question.', quote: 'appeal promptly' } }]);
  await expect(ask).toBeEnabled();
  await ask.click();
  await expect(page.getByTestId('replay.judge.verdict')).toHaveText('Judge (not trusted yet): derivable');
  await expect(page.getByTestId('replay.judge.agreement')).toContainText('n 1');
  await expect(page.getByTestId('replay.judge.agreement')).toContainText('[0 1 / 0 0]');
  await expect(page.getByTestId('replay.judge.agreement')).toHaveAttribute('title', /at least 10 are needed/);
  await expect(page.getByTestId('replay.judge.usage')).toContainText('1 call');
  await expect(page.getByTestId('replay.judge.badQuote')).toBeVisible();
  // The judge was shown the question and the summary, and the person's label is unchanged.
  const sent = JSON.stringify((await mock.requests()).map((r) => r.body));
  expect(sent).toContain('How many days do I have to request a reconsideration');
  await expect(page.getByTestId('replay.sufficiencyLabel')).toContainText('Labelled not derivable');
  await app.screenshot('sufficiency-judge-1440');
  await page.setViewportSize({ width: 1280, height: 720 });
  await app.screenshot('sufficiency-judge-1280');
  await page.setViewportSize({ width: 1440, height: 900 });

  // Evaluate's table shows the judge's agreement beside the chain it was measured on.
  const lines = (await readFile(statute, 'utf8')).trim().split('\n');
  await page.getByTestId('eval.open').click();
  await page.getByTestId('eval.import').setInputFiles({ name: 'two.dataset.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(`${lines.slice(0, 3).join('\n')}\n`) });
  await expect(page.getByTestId('eval.dataset')).toContainText('2 items');
  await page.getByTestId('eval.chain.demo-summarise-then-answer').click();
  await page.getByTestId('eval.start').click();
  const cell = page.getByTestId('eval.judge.demo-summarise-then-answer');
  await expect(cell).toHaveText('κ 0.00 · n 1 · not trusted', { timeout: 60_000 });
  await expect(cell).toHaveAttribute('title', /at least 10 are needed/);
});
