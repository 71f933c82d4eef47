import { expect, test } from './fixtures/app.ts';

/**
 * A Langflow export brought in through the Library's Import: it lands as a chain on the canvas
 * (model steps with their prompts, the output), runs on the demo model, and a flow with
 * components Seamscope has no counterpart for is refused with each one named.
 */
const sample = (name: string) => new URL(`../src/testing/import-samples/langflow/${name}.json`, import.meta.url).pathname;

test('a Langflow starter project imports as a chain that runs; one with an arXiv search and a loop is refused, saying why', async ({ app, page }) => {
  await app.open();
  await page.getByTestId('library.import').setInputFiles(sample('Basic_Prompt_Chaining'));
  // What the import kept, changed and dropped, before anything runs.
  const report = page.getByTestId('import.report');
  await expect(report).toContainText('Imported from Langflow');
  await expect(report.getByTestId('import.report.kept')).toContainText('temperature 0.1');
  await expect(report.getByTestId('import.report.changed')).toContainText('max tokens');
  await app.screenshot('import-langflow-report');
  await report.getByRole('button', { name: 'Close' }).last().click();
  // The chain's id is the flow's own id (Langflow writes a UUID per flow).
  await app.openChain('langflow-b5b0c252-95ae-4b07-8211-67c8b12ea60e');
  await app.showWholeChain();
  for (const id of ['openai', 'openai_2', 'openai_3', 'chat_output']) await expect(app.node(id)).toBeVisible();
  await app.node('openai_2').click();
  await expect(page.getByTestId('inspector')).toContainText('seasoned business analyst');
  await app.screenshot('import-langflow-1440');
  await page.setViewportSize({ width: 1280, height: 720 });
  await app.screenshot('import-langflow-1280');
  await page.setViewportSize({ width: 1440, height: 900 });

  await app.run({ chat_input: 'A tool that tracks which facts each step of an LLM pipeline drops' });
  await app.expectRunStatus(/succeeded/i);

  await page.getByTestId('library.import').setInputFiles(sample('Research_Translation_Loop'));
  const problems = page.getByTestId('import.problems');
  await expect(problems).toContainText('"arXiv" (ArXivComponent) has no Seamscope counterpart');
  await expect(problems).toContainText('"Loop" (LoopComponent)');
  await app.screenshot('import-langflow-refused');
});
