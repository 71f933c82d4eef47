import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures/app.ts';

/**
 * Traces other tools wrote, chosen through the Import trace button's file chooser: a Langfuse
 * export (fixtures/traces, a copy of the corpus file: OpenAI Agents SDK, MIT, langfuse/langfuse)
 * is detected as such, imported as one model step per generation, and a tool-only reply shows
 * its tool call instead of an empty answer. A hostile export is refused and stores nothing.
 */
const langfuseExport = new URL('./fixtures/traces/langfuse-export-openai-agents-2025-09-30.trace.json', import.meta.url).pathname;

async function chooseTraceFile(page: import('@playwright/test').Page, files: Parameters<import('@playwright/test').FileChooser['setFiles']>[0]) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByText('Import trace', { exact: true }).click();
  await (await chooser).setFiles(files);
}

test('import a Langfuse trace export and step through its generations', async ({ app, page }) => {
  await app.open();
  await chooseTraceFile(page, langfuseExport);
  await expect(page.getByTestId('toast').filter({ hasText: 'Imported 2 model call(s) from langfuse-export-openai-agents-2025-09-30.trace.json (Langfuse trace export)' })).toBeVisible();
  await app.expectStoredReplay();
  await expect(page.locator('[data-testid^="library.item."]', { hasText: 'Agent workflow' })).toHaveCount(1);

  const label = page.getByTestId('replay.boundary');
  await expect(label).toHaveText('step response');
  // The first generation answered with a tool call only: its output is the call, not "(none)".
  await expect(page.getByTestId('replay.output')).toContainText('get_weather');
  await expect(page.getByTestId('replay.output')).toContainText('Tokyo');
  await expect(page.getByTestId('replay').getByText('You are a helpful agent.')).toBeVisible();
  await page.getByTestId('replay.next').click();
  await expect(label).toHaveText(/\(response_2\)$/);
  await expect(page.getByTestId('replay.output')).toContainText('The weather in Tokyo is currently sunny.');
  await app.screenshot('import-langfuse');
});

test('an imported trace shows its span tree; a model span opens its step; traces alike get names a person can tell apart', async ({ app, page }) => {
  await app.open();
  await chooseTraceFile(page, langfuseExport);
  await app.expectStoredReplay();
  const tree = page.getByTestId('replay.spanTree');
  // agent → agent → model, tool, model: the tree as the SDK recorded it, kinds named, times on one axis.
  await expect(tree.getByRole('treeitem')).toHaveCount(5);
  await expect(tree.getByRole('treeitem').nth(0)).toContainText('agent');
  await expect(tree.getByRole('treeitem').nth(0)).toContainText('Agent workflow');
  await expect(tree.getByRole('treeitem').nth(3)).toContainText('tool');
  await expect(tree.getByRole('treeitem').nth(3)).toContainText('get_weather');
  await expect(tree.getByRole('treeitem').nth(3)).toHaveAttribute('aria-level', '3');
  await expect(page.getByTestId('replay.span.response')).toHaveAttribute('aria-selected', 'true');
  // The second model call: its step's boundary view, what it was sent and what it returned.
  const second = page.getByTestId('replay.span.response_2');
  const box = await second.boundingBox();
  if (!box) throw new Error('the second model span is not on screen');
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(page.getByTestId('replay.boundary')).toHaveText(/^step .*\(response_2\)$/);
  await expect(second).toHaveAttribute('aria-selected', 'true');
  await app.screenshot('import-span-tree');
  await page.setViewportSize({ width: 1280, height: 720 });
  await app.screenshot('import-span-tree-1280');

  // A second trace with the same root span name: the library never shows two alike.
  await chooseTraceFile(page, { name: 'another-workflow.trace.json', mimeType: 'application/json', buffer: Buffer.from(readFileSync(langfuseExport, 'utf8').replace('"Hello world"', '"Hello again"')) });
  await expect(page.locator('[data-testid^="library.item."]', { hasText: 'Agent workflow' })).toHaveCount(2);
  await expect(page.locator('[data-testid^="library.item."]', { hasText: 'Agent workflow (2)' })).toHaveCount(1);
});

test('a hostile Langfuse export is refused with a message and changes nothing', async ({ app, page }) => {
  await app.open();
  const library = await page.locator('[data-testid^="library.item."]').count();
  const hostile = JSON.stringify({ trace: { id: 't' }, observations: Array.from({ length: 10_001 }, (_, i) => ({ id: `g${i}`, type: 'GENERATION', startTime: '2025-01-01T00:00:00Z' })) });
  await chooseTraceFile(page, { name: 'huge.trace.json', mimeType: 'application/json', buffer: Buffer.from(hostile) });
  await expect(page.getByTestId('toast').filter({ hasText: 'Import failed: read as a Langfuse trace export, but the Langfuse export is malformed: observations must hold at most 10000 observations' })).toBeVisible();
  await expect(page.locator('[data-testid^="library.item."]')).toHaveCount(library);
});
