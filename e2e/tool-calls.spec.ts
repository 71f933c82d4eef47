import { readFile } from 'node:fs/promises';
import { expect, mock, test } from './fixtures/app.ts';

/**
 * A forced tool call end to end in the browser: the real OpenAI provider sends the tool, the
 * mock answers with a call, the call's arguments become the step's output, and the replay
 * shows the call and the reasoning as text (a markup payload in them stays inert).
 */
const PAYLOAD = '<img src=x onerror="window.__toolXss=1">';

test('a forced tool call is the step output, and the replay shows the call and the reasoning as text', async ({ app, page }) => {
  await mock.reset();
  await app.open();
  await app.addMockProfile('Mock tools');
  await page.getByTestId('library.import').setInputFiles({ name: 'tool.chain.json', mimeType: 'application/json', buffer: await readFile(new URL('./fixtures/tool.chain.json', import.meta.url)) });
  await expect(app.node('pick')).toBeVisible();
  await mock.enqueue([{ content: '', reasoning: `Billing words ${PAYLOAD}`, toolCalls: [{ id: 'call_e2e', name: 'route_ticket', arguments: { queue: 'billing', note: PAYLOAD } }] }]);
  await app.run();
  await app.expectRunStatus(/succeeded/i);
  await app.expectStoredReplay();
  await app.stepToBoundary(/\(pick\)\s*→.*\(final\)/);
  const attempt = page.getByTestId('replay.attempt.pick.1');
  await expect(attempt.getByTestId('replay.attempt.pick.1.tool-call.1')).toContainText('route_ticket');
  await expect(attempt.getByTestId('replay.attempt.pick.1.tool-call.1')).toContainText('<img src=x onerror=');
  await attempt.getByTestId('replay.attempt.pick.1.reasoning').locator('summary').click();
  await expect(attempt.getByTestId('replay.attempt.pick.1.reasoning')).toContainText(`Billing words ${PAYLOAD}`);
  expect(await page.evaluate(() => (window as unknown as { __toolXss?: number }).__toolXss)).toBeUndefined();
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  const sent = (await mock.requests()).find((r) => r.path === '/v1/chat/completions')?.body as { tool_choice?: unknown };
  expect(sent.tool_choice).toEqual({ type: 'function', function: { name: 'route_ticket' } });
});
