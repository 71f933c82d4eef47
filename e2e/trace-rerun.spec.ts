import { expect, test } from './fixtures/app.ts';

/**
 * Rerun a step of an imported trace, as a person does: Import trace with the file chooser (a
 * capture in the corpus: OpenInference's OpenAI instrumentation around the openai client, the
 * first call made under a recorded prompt template; see src/engine/rerun-span-template.test.ts),
 * open the first model span, edit its template with the keyboard, rerun it on the offline demo
 * model, then compare the fork with the trace step by step.
 */
const capture = new URL('../src/testing/corpus/traces/otlp/openinference-openai-js-prompt-template.otlp.json', import.meta.url).pathname;
// The demo model answers a question from the text it is given: the edit turns the summary into one.
const EDITED = 'Ticket: {{ticket}}\n\nHow many days has the customer waited?';
const TICKET = 'My refund for order 1182 has not arrived 14 days after I returned the kettle.';

test('edit a recorded prompt template, rerun the call on the demo model with the call that read it, and compare', async ({ app, page }) => {
  await app.open();
  const chooser = page.waitForEvent('filechooser');
  await page.getByText('Import trace', { exact: true }).click();
  await (await chooser).setFiles(capture);
  await expect(page.getByTestId('toast').filter({ hasText: 'Imported 3 model call(s)' })).toBeVisible();
  await app.expectStoredReplay();

  // The first model span: the call made under the template.
  const span = page.getByTestId('replay.span.OpenAI_Chat_Completions');
  const box = await span.boundingBox();
  if (!box) throw new Error('the model span is not on screen');
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  // Its boundary opens (what it sent on to the call that read it).
  await expect(page.getByTestId('replay.boundary')).toHaveText(/^OpenAI Chat Completions \(OpenAI_Chat_Completions\) → /);
  await page.getByTestId('replay.span.rerun.OpenAI_Chat_Completions').click();

  const dialog = page.getByTestId('traceRerun');
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('traceRerun.mode.template')).toBeChecked();
  await expect(page.getByTestId('traceRerun.template')).toHaveValue('Summarise this support ticket in one sentence: {{ticket}}');
  await expect(page.getByTestId('traceRerun.variable.ticket')).toHaveValue(TICKET);
  await expect(page.getByTestId('traceRerun.profile').locator('option:checked')).toHaveText(/Demo model/);
  // The plan: the call that drafted a reply from the summary reruns; the unrelated one cannot.
  await expect(page.getByTestId('traceRerun.plan.OpenAI_Chat_Completions_2')).toContainText('Rerun');
  await expect(page.getByTestId('traceRerun.plan.OpenAI_Chat_Completions_3')).toContainText('Kept');
  await expect(page.getByTestId('traceRerun.plan.OpenAI_Chat_Completions_3')).toContainText('the trace does not show what it read');
  await app.typeInto(page.getByTestId('traceRerun.template'), EDITED);
  await expect(page.getByTestId('traceRerun.template')).toHaveValue(EDITED);
  await app.screenshot('trace-rerun-dialog');
  await page.setViewportSize({ width: 1280, height: 720 });
  await app.screenshot('trace-rerun-dialog-1280');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId('traceRerun.start').click();

  // The fork: a new run, "fork of" the import, that ran on the demo model with the edited template.
  await expect(page.getByTestId('toast').filter({ hasText: 'Run succeeded' })).toBeVisible({ timeout: 30_000 });
  await app.expectStoredReplay();
  await expect(page.getByTestId('replay.parent')).toBeVisible();
  // The call that read the summary was sent the demo model's new answer in its place.
  await expect(page.getByTestId('replay.boundary')).toHaveText(/^OpenAI Chat Completions \(OpenAI_Chat_Completions\) → OpenAI Chat Completions \(OpenAI_Chat_Completions_2\)/);
  await expect(page.getByTestId('replay').getByText('Draft a reply to the customer from this summary: The time limit is 14 days.')).toBeVisible();

  await page.getByTestId('replay.compareParent').click();
  const diff = page.getByTestId('diff');
  await expect(diff).toBeVisible();
  await expect(page.getByTestId('diff.step.OpenAI_Chat_Completions')).toHaveClass(/is-changed/);
  await expect(page.getByTestId('diff.step.OpenAI_Chat_Completions_2')).toHaveClass(/is-changed/);
  await expect(page.getByTestId('diff.step.OpenAI_Chat_Completions_3')).not.toHaveClass(/is-changed/);
  await expect(page.getByTestId('diff.step.OpenAI_Chat_Completions').getByTestId('diff.outputA')).toHaveText('The customer is waiting for a refund for order 1182.');
  await expect(page.getByTestId('diff.step.OpenAI_Chat_Completions').getByTestId('diff.outputB')).toContainText('The time limit is 14 days.');
  await app.screenshot('trace-rerun-diff');
  await page.setViewportSize({ width: 1280, height: 720 });
  await app.screenshot('trace-rerun-diff-1280');
});

test('with no recorded template the messages are edited; a call the trace does not show reading the span is kept', async ({ app, page }) => {
  // OpenLLMetry JS around the openai client (corpus capture): the second call translates the first one's answer.
  const openllmetry = new URL('../src/testing/corpus/traces/otlp/openllmetry-js-0.27-openai.otlp.json', import.meta.url).pathname;
  await app.open();
  const chooser = page.waitForEvent('filechooser');
  await page.getByText('Import trace', { exact: true }).click();
  await (await chooser).setFiles(openllmetry);
  await app.expectStoredReplay();
  await page.getByTestId('replay.span.rerun.chat_mock_model').click();
  await expect(page.getByTestId('traceRerun.mode.template')).toHaveCount(0);
  await expect(page.getByTestId('traceRerun.message.0')).toHaveValue('Be brief.');
  await expect(page.getByTestId('traceRerun.message.1')).toHaveValue('Capital of France?');
  await app.typeInto(page.getByTestId('traceRerun.message.1'), 'Paris is the capital of France, and Rome is the capital of Italy. What is the capital of Italy?');
  await expect(page.getByTestId('traceRerun.plan.chat_mock_model_3')).toContainText('the trace does not show what it read');
  await page.getByTestId('traceRerun.start').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Run succeeded' })).toBeVisible({ timeout: 30_000 });
  await app.expectStoredReplay();
  await page.getByTestId('replay.compareParent').click();
  await expect(page.getByTestId('diff.step.chat_mock_model')).toHaveClass(/is-changed/);
  await expect(page.getByTestId('diff.step.chat_mock_model_3')).not.toHaveClass(/is-changed/);
});

test('the rerun says what of the recorded request it sends, and the replay what the endpoint’s provider actually sent', async ({ app, page }) => {
  // OpenInference around the OpenAI Agents SDK (corpus capture): the call offered get_weather with tool_choice auto, top_p 1 and more.
  const agents = new URL('../src/testing/corpus/traces/otlp/openinference-openai-agents-2025-09-30.otlp.json', import.meta.url).pathname;
  await app.open();
  const chooser = page.waitForEvent('filechooser');
  await page.getByText('Import trace', { exact: true }).click();
  await (await chooser).setFiles(agents);
  await app.expectStoredReplay();
  await page.getByTestId('replay.span.rerun.response').click();
  const planned = page.getByTestId('traceRerun.request.response');
  await expect(planned).toContainText('Sends as recorded: temperature 1, tools: get_weather, tool_choice auto, top_p 1');
  await expect(page.getByTestId('traceRerun.request.response.notSent')).toContainText('text.verbosity medium, parallel_tool_calls true');
  await app.typeInto(page.getByTestId('traceRerun.message.1'), 'What is the weather in Osaka?');
  await page.setViewportSize({ width: 1280, height: 720 });
  await planned.scrollIntoViewIfNeeded();
  await app.screenshot('trace-rerun-request-1280');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId('traceRerun.start').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Run succeeded' })).toBeVisible({ timeout: 30_000 });
  await app.expectStoredReplay();
  // The offline demo model takes no tools or sampling settings: the replay names them as left out instead of claiming them sent.
  await expect(page.getByTestId('replay.attempt.response.1.asRecorded.notSent')).toContainText("tools: get_weather (the endpoint's provider left it out), tool_choice auto (the endpoint's provider left it out), top_p 1 (the endpoint's provider left it out)");
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.getByTestId('replay.attempt.response.1.asRecorded').scrollIntoViewIfNeeded();
  await app.screenshot('trace-rerun-request-replay-1280');
});
