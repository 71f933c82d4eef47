import { readFile } from 'node:fs/promises';
import { expect, mock, test } from './fixtures/app.ts';
import type { Page } from '@playwright/test';

/**
 * Model and trace text is data, never markup: hostile payloads in outputs, step names, retries,
 * the diff, the metrics and an imported OTLP trace must show as text and never run.
 */
const IMG = '<img src=x onerror=alert(1)>';
const SCRIPT = '<script>window.__pwned=1</script>';
const LINK = '<a href="javascript:alert(2)">click</a>';
const PAYLOAD = `${IMG}${SCRIPT}${LINK}`;

async function expectInert(page: Page, dialogs: string[]): Promise<void> {
  expect(dialogs, 'no alert/confirm dialog opened').toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  await expect(page.locator('a[href^="javascript:"]')).toHaveCount(0);
  expect(await page.locator('script').evaluateAll((nodes) => nodes.filter((n) => n.textContent?.includes('__pwned')).length)).toBe(0);
}

/** An OTLP trace (OpenLLMetry's indexed attributes) whose messages, name and output are the payload. */
async function hostileTrace(): Promise<Buffer> {
  const base = JSON.parse(await readFile('/work/shared/corpus/traces/otlp/openllmetry-0.33.9-openai-chat.otlp.json', 'utf8'));
  const span = base.resourceSpans[0].scopeSpans[0].spans[0];
  span.name = `chat ${PAYLOAD}`;
  for (const a of span.attributes) {
    if (a.key === 'gen_ai.prompt.0.content' || a.key === 'gen_ai.completion.0.content') a.value = { stringValue: `Hello ${PAYLOAD}` };
  }
  return Buffer.from(JSON.stringify(base));
}

test('hostile payloads through every pane, the diff, the metrics and an imported trace stay text', async ({ app, page }) => {
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await mock.reset();
  await app.open();
  await app.addMockProfile('Mock hostile', { input: 1, output: 4 });
  await page.getByTestId('library.import').setInputFiles({ name: 'hostile.chain.json', mimeType: 'application/json', buffer: await readFile(new URL('./fixtures/hostile.chain.json', import.meta.url)) });
  await expect(app.node('summarise')).toContainText(IMG);

  // Run 1: the summary first comes back malformed (and hostile), then valid and hostile; so does the answer.
  await mock.enqueue([{ content: { summary: 7, note: PAYLOAD } }, { content: { summary: `Summary ${PAYLOAD}` } }, { content: { answer: `Answer ${PAYLOAD}` } }]);
  await app.run();
  await app.expectRunStatus(/succeeded/i);
  await app.expectStoredReplay();
  await app.stepToBoundary(/\(summarise\)\s*→.*\(answer\)/);
  // JSON panes escape the link's quotes; the tags themselves are shown as they came.
  await expect(page.getByTestId('replay.intermediate')).toContainText(`Summary ${IMG}${SCRIPT}`);
  await expect(page.getByTestId('replay.received')).toContainText(`Summary ${PAYLOAD}`);
  await expect(page.getByTestId('replay.output')).toContainText(`Answer ${IMG}${SCRIPT}`);
  const first = page.getByTestId('replay.attempt.summarise.1');
  await expect(first).toContainText('malformed: schema violation');
  await expect(first).toContainText(SCRIPT);
  await expect(page.getByTestId('replay.step.summarise')).toContainText(IMG);
  await expectInert(page, dialogs);
  await app.screenshot('seams-safety-replay');

  // The fork editor shows the hostile intermediate as text too.
  await page.getByTestId('replay.fork.summarise').click();
  await expect(page.getByTestId('fork.editor').locator('.monaco-editor')).toContainText('onerror');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('fork')).toHaveCount(0);

  // Run 2 with different hostile text, then the diff between the two.
  await mock.enqueue([{ content: { summary: `Second ${LINK}` } }, { content: { answer: `Second answer ${IMG}` } }]);
  await app.run();
  await app.expectRunStatus(/succeeded/i);
  await app.expectStoredReplay();
  const compare = page.getByTestId('replay.compareWith');
  await compare.selectOption({ index: 1 });
  await expect(page.getByTestId('diff.step.summarise')).toContainText(`Summary ${IMG}${SCRIPT}`);
  await expect(page.getByTestId('diff.step.answer')).toContainText(`Second answer ${IMG}`);
  await expectInert(page, dialogs);
  await app.screenshot('seams-safety-diff');

  // The metrics table names the hostile steps.
  await page.getByTestId('runs.metrics').click();
  await expect(page.getByTestId('metrics.step.summarise')).toContainText(IMG);
  await expectInert(page, dialogs);
  await page.keyboard.press('Escape');

  // An imported OTLP trace carrying the same payloads.
  await page.getByTestId('trace.import').setInputFiles({ name: 'hostile.otlp.json', mimeType: 'application/json', buffer: await hostileTrace() });
  await expect(page.getByTestId('toast').filter({ hasText: 'Imported 1 model call' })).toBeVisible();
  await app.expectStoredReplay();
  await expect(page.getByTestId('replay')).toContainText(`Hello ${PAYLOAD}`);
  await expectInert(page, dialogs);
  await app.screenshot('seams-safety-import');
});
