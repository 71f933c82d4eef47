import { readdirSync } from 'node:fs';
import { expect, test } from './fixtures/app.ts';

/**
 * A Prompt flow brought in as a person brings one: its folder picked through the Library's
 * Folder button (Playwright hands the folder to the `webkitdirectory` input in place of the OS
 * dialog). The flow's Jinja prompts are read from that folder, its activate condition becomes a
 * router, its default variant the step, its data.jsonl a dataset in Evaluate; the fidelity report
 * says what was kept, changed and not carried over; the chain runs on the demo model down the
 * branch its input names.
 */
const folder = new URL('../src/testing/import-samples/promptflow/support-reply', import.meta.url).pathname;

test('a Prompt flow folder imports with its prompts, router, variant and dataset, and runs on the demo model', async ({ app, page }) => {
  await app.open();
  await page.getByTestId('library.import.folder').setInputFiles(folder);
  const report = page.getByTestId('import.report');
  await expect(report).toContainText('Imported from Prompt flow');
  await expect(report.getByTestId('import.report.kept')).toContainText('max tokens 200');
  await expect(report.getByTestId('import.report.changed')).toContainText('became the router reply_style_route');
  await expect(report.getByTestId('import.report.changed')).toContainText('stored as the dataset "support-reply data" (3 items)');
  await expect(report.getByTestId('import.report.dropped')).toContainText('variant variant_1 (short_reply__variant_1.jinja2');
  await expect(report.getByTestId('import.report.dropped')).toContainText('stop ["###"]');
  await app.screenshot('import-promptflow-report-1440');
  await page.setViewportSize({ width: 1280, height: 720 });
  await app.screenshot('import-promptflow-report-1280');
  await page.setViewportSize({ width: 1440, height: 900 });
  await report.getByRole('button', { name: 'Close' }).last().click();

  await app.openChain('promptflow-support-reply');
  await app.showWholeChain();
  for (const id of ['policy_context', 'short_reply', 'detailed_reply', 'reply_style_route']) await expect(app.node(id)).toBeVisible();
  await app.run({ reply_style: 'detailed' });
  await app.expectRunStatus(/succeeded/i);
  await app.screenshot('import-promptflow-run-1440');

  // Imported again, the folder's dataset is found, not stored twice.
  await page.getByTestId('library.import.folder').setInputFiles(folder);
  await expect(report.getByTestId('import.report.changed')).toContainText('the dataset "support-reply data" (3 items), stored already');
  await report.getByRole('button', { name: 'Close' }).last().click();

  // The flow's data.jsonl is a dataset Evaluate offers, once.
  await page.getByTestId('eval.open').click();
  await expect(page.getByTestId('eval.dataset').locator('option', { hasText: 'support-reply data' })).toHaveCount(1);
});

test('a flow file picked alone says its prompts need the folder and stores nothing; picked with its files, it imports', async ({ app, page }) => {
  await app.open();
  await page.getByTestId('library.import').setInputFiles(`${folder}/flow.dag.yaml`);
  const problems = page.getByTestId('import.problems');
  await expect(problems).toContainText('its prompt file policy_context.jinja2 is not read: this import was given the flow file alone, without its folder');
  await expect(app.libraryItem('promptflow-support-reply')).toHaveCount(0);
  await problems.getByRole('button', { name: 'Close' }).last().click();

  // The same files picked together in the file dialog (several files, no folder).
  await page.getByTestId('library.import').setInputFiles(readdirSync(folder).map((name) => `${folder}/${name}`));
  const report = page.getByTestId('import.report');
  await expect(report).toContainText('Imported from Prompt flow');
  await expect(report.getByTestId('import.report.changed')).toContainText('became the router reply_style_route');
  await report.getByRole('button', { name: 'Close' }).last().click();
  await expect(app.libraryItem('promptflow-flow')).toHaveCount(1);
});
