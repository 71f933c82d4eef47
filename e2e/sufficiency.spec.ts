import { readFile } from 'node:fs/promises';
import { AppPage, expect, test } from './fixtures/app.ts';

/**
 * Sufficiency as a reviewer records it: the summarise design's boundary is estimated
 * insufficient (its summary says "promptly"); the reviewer labels it "not derivable" with a
 * note, typed; the label survives a reload, travels in the run file and the OTLP export, and a
 * run file carrying it imports back into a fresh library with the label intact.
 */
test('label a boundary as not derivable, see it stored and exported', async ({ app, page, browser, baseURL }) => {
  await app.open();
  await app.openChain('demo-summarise-then-answer');
  await app.run();
  await app.expectRunStatus(/succeeded/i);
  await app.openLatestRun();
  await app.stepToBoundary(/\(summarise\)\s*→.*\(answer\)/);

  const bar = page.getByTestId('replay.sufficiency');
  await expect(page.getByTestId('replay.sufficiencyEstimate')).toHaveText('Estimated insufficient');
  await expect(page.getByTestId('replay.sufficiencyEstimate')).toHaveAttribute('title', /dropped/);
  await expect(bar.getByRole('button', { name: 'Save label' })).toBeDisabled();

  await bar.getByLabel('Not derivable').click();
  await bar.getByLabel('Note on this label').click();
  await page.keyboard.type('The summary says "promptly": no day count is left to answer with.');
  // ← and → step boundaries, but not while typing the note.
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('replay.boundary')).toHaveText(/\(summarise\)\s*→.*\(answer\)/);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('replay.sufficiencyLabel')).toContainText('Labelled not derivable');
  await app.screenshot('replay-sufficiency');
  await page.setViewportSize({ width: 1280, height: 720 });
  await app.screenshot('replay-sufficiency-1280');
  await page.setViewportSize({ width: 1440, height: 900 });

  // Stored with the run: a reload shows it again.
  await page.reload();
  await expect(page.getByTestId('canvas')).toBeVisible();
  await app.openLatestRun();
  await app.stepToBoundary(/\(summarise\)\s*→.*\(answer\)/);
  await expect(bar.getByLabel('Not derivable')).toBeChecked();
  await expect(bar.getByLabel('Note on this label')).toHaveValue('The summary says "promptly": no day count is left to answer with.');

  // In the run file and in OTLP.
  const runFile = page.waitForEvent('download');
  await page.getByTestId('replay.exportRunFile').click();
  const runPath = await (await runFile).path();
  const file = JSON.parse(await readFile(runPath, 'utf8')) as { format: string; run: { labels?: { producer: string; consumer: string; verdict: string; note: string }[] } };
  expect(file.format).toBe('seamscope.run');
  expect(file.run.labels).toEqual([expect.objectContaining({ producer: 'summarise', consumer: 'answer', verdict: 'not-derivable', note: 'The summary says "promptly": no day count is left to answer with.' })]);
  const otlp = page.waitForEvent('download');
  await page.getByTestId('replay.exportOtlp').click();
  expect(await readFile(await (await otlp).path(), 'utf8')).toContain('seamscope.boundary.label');

  // Changing the verdict updates the stored label; clearing removes it.
  await bar.getByLabel('Unsure').click();
  await bar.getByRole('button', { name: 'Update label' }).click();
  await expect(page.getByTestId('replay.sufficiencyLabel')).toContainText('Labelled unsure');
  await bar.getByRole('button', { name: 'Clear' }).click();
  await expect(page.getByTestId('replay.sufficiencyLabel')).toHaveCount(0);
  await expect(bar.getByLabel('Unsure')).not.toBeChecked();

  // The exported run file (with its "not derivable" label) imports into a fresh browser profile.
  const fresh = await browser.newContext({ baseURL, viewport: { width: 1440, height: 900 } });
  const other = new AppPage(await fresh.newPage());
  await other.open();
  await other.page.getByTestId('trace.import').setInputFiles(runPath);
  await expect(other.page.getByTestId('replay')).toBeVisible();
  await other.stepToBoundary(/\(summarise\)\s*→.*\(answer\)/);
  await expect(other.page.getByTestId('replay.sufficiency').getByLabel('Not derivable')).toBeChecked();
  await fresh.close();
});
