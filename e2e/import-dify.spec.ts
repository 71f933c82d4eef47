import { expect, test } from './fixtures/app.ts';

/**
 * A real Dify workflow (Awesome-Dify-Workflow's translation_workflow.yml, byte for byte) brought
 * in through the Library's Import as a person would: its "COUNTRY IS NULL" if-else becomes a
 * router with a route on an empty value, the fidelity report says so, and the chain runs on the
 * demo model down the branch the country input chooses: left empty, then given.
 */
const sample = new URL('../src/testing/import-samples/dify/translation_workflow.yml', import.meta.url).pathname;

test('a Dify workflow imports from the Library with its fidelity report, and runs on the demo model down the branch its optional input chooses', async ({ app, page }) => {
  await app.open();
  await page.getByTestId('library.import').setInputFiles(sample);
  const report = page.getByTestId('import.report');
  await expect(report).toContainText('Imported from Dify');
  await expect(report.getByTestId('import.report.kept')).toContainText('model deepseek-chat');
  await expect(report.getByTestId('import.report.changed')).toContainText('an empty or missing value takes the IF branch; any other value the ELSE branch');
  await expect(report.getByTestId('import.report.changed')).toContainText('joining 2 branches');
  await app.screenshot('import-dify-report-1440');
  await page.setViewportSize({ width: 1280, height: 720 });
  await app.screenshot('import-dify-report-1280');
  await page.setViewportSize({ width: 1440, height: 900 });
  await report.getByRole('button', { name: 'Close' }).last().click();

  await app.openChain('dify-translation-workflow');
  await app.showWholeChain();
  for (const id of ['translation', 'country_is_null', 'expert_suggestions', 'expert_suggestions_with_country']) await expect(app.node(id)).toBeVisible();
  const text = { source_lang: 'English', target_lang: 'French', source_text: 'The appeal must be filed within 180 days.' };

  // No country: the router's empty route.
  await app.run(text);
  await app.expectRunStatus(/succeeded/i);
  await expect(app.node('expert_suggestions')).toHaveAttribute('data-status', 'succeeded');
  await expect(app.node('expert_suggestions_with_country')).toHaveAttribute('data-status', 'skipped');
  await app.screenshot('import-dify-run-1440');

  // A country given: the otherwise branch, which reads it.
  await app.run({ ...text, country: 'Canada' });
  await app.expectRunStatus(/succeeded/i);
  await expect(app.node('expert_suggestions_with_country')).toHaveAttribute('data-status', 'succeeded');
  await expect(app.node('expert_suggestions')).toHaveAttribute('data-status', 'skipped');
});
