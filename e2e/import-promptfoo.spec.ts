import { expect, test } from './fixtures/app.ts';

/**
 * A promptfoo config brought in through the Library's Import as a person would (the getting-started
 * config from promptfoo's repository, a copy in src/testing/import-samples): the fidelity report
 * says what was kept and changed, its tests are stored as a dataset for Evaluate, and the chain
 * runs on the demo model.
 */
const config = new URL('../src/testing/import-samples/promptfoo/getting-started/promptfooconfig.yaml', import.meta.url).pathname;

test('a promptfoo config imports with its report, its tests become a dataset, and its chain runs', async ({ app, page }) => {
  await app.open();
  await page.getByTestId('library.import').setInputFiles(config);
  const report = page.getByTestId('import.report');
  await expect(report).toContainText('Imported from promptfoo');
  await expect(report.getByTestId('import.report.kept')).toContainText('model gpt-4.1');
  await expect(report).toContainText('each {{ var }} became {var}');
  await expect(report).toContainText(/stored as the dataset ".*" \(2 items\)/);
  await app.screenshot('import-promptfoo-report');
  await report.getByRole('button', { name: 'Close' }).last().click();
  await expect(page.locator('[data-testid^="library.item."]', { hasText: 'Getting started: prompt 1' })).toHaveCount(1);
  await app.run({ language: 'French', input: 'Hello world' });
  await app.expectRunStatus(/succeeded/i);
});
