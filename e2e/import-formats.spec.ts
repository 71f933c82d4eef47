import { expect, test } from './fixtures/app.ts';

/**
 * A Flowise chatflow and an n8n workflow brought in through the Library's Import as a person
 * would: the fidelity report says what was kept, changed and dropped, the chain lands on the
 * canvas and runs on the demo model. (Langflow has its own spec; Seamscope's own files are
 * imported throughout the other specs.)
 */
const sample = (path: string) => new URL(`../src/testing/import-samples/${path}`, import.meta.url).pathname;

test('a Flowise chatflow and an n8n workflow import with their fidelity reports and run', async ({ app, page }) => {
  await app.open();
  const report = page.getByTestId('import.report');

  await page.getByTestId('library.import').setInputFiles(sample('flowise/chatflows-Prompt_Chaining.json'));
  await expect(report).toContainText('Imported from Flowise');
  await expect(report.getByTestId('import.report.kept')).toContainText('temperature 0.9');
  await report.getByRole('button', { name: 'Close' }).last().click();
  await app.openChain('flowise-chatflows-prompt-chaining');
  await app.run({ question: 'A lamp that dims itself when the room is empty' });
  await app.expectRunStatus(/succeeded/i);

  await page.getByTestId('library.import').setInputFiles(sample('n8n/Gmail-AI-Auto-Responder-Create-Draft-Replies-to-incoming-emails.json'));
  await expect(report).toContainText('Imported from n8n');
  await expect(report.getByTestId('import.report.dropped')).toContainText('"Gmail Trigger" (gmailTrigger)');
  await expect(report.getByTestId('import.report.kept')).toContainText('the output parser "JSON Parser"');
  await app.screenshot('import-n8n-report-1440');
  await page.setViewportSize({ width: 1280, height: 720 });
  await app.screenshot('import-n8n-report-1280');
  await page.setViewportSize({ width: 1440, height: 900 });
  await report.getByRole('button', { name: 'Close' }).last().click();
  await app.openChain('n8n-gmail-ai-auto-responder-create-draft-replies-to-incoming');
  for (const id of ['assess_if_message_needs_a_reply', 'if_needs_reply', 'generate_email_reply']) await expect(app.node(id)).toBeVisible();
  await app.run({ subject: 'Invoice 1042 is overdue', textashtml: 'Hello, could you confirm when invoice 1042 will be paid? Thanks, Dana' });
  await app.expectRunStatus(/succeeded/i);
});
