import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures/app.ts';

/**
 * The walking skeleton, as a newcomer meets it: the demo chains are there on first start;
 * "summarise then answer" runs on the offline demo model; its replay shows the day counts in
 * the source and not in the summary; the chain exports and imports back unchanged.
 */
test('summarise-then-answer: run on the demo model and see where the day counts were lost', async ({ app, page }) => {
  await app.open();
  await expect(app.libraryItem('demo-summarise-then-answer')).toContainText('Summarise, then answer');
  await expect(app.libraryItem('demo-select-quotes-then-answer')).toBeVisible();
  await expect(page.getByTestId('profile.select')).toContainText(/Demo model/);

  await app.openChain('demo-summarise-then-answer');
  await expect(app.node('summarise')).toBeVisible();
  await expect(app.node('answer')).toBeVisible();

  await app.run();
  await app.expectRunStatus(/succeeded/i);
  await app.openLatestRun();
  await app.stepToBoundary(/\(summarise\)\s*→.*\(answer\)/);

  const source = page.getByTestId('replay.source');
  const intermediate = page.getByTestId('replay.intermediate');
  const received = page.getByTestId('replay.received');
  await expect(source).toContainText('180-day period');
  await expect(source).toContainText('120-day period');
  await expect(intermediate).toContainText(/promptly/);
  await expect(intermediate).not.toContainText(/\b(180|120|72|60)\b/);
  await expect(received).toContainText(/promptly/);
  await expect(received).toContainText('How many days');
  await app.screenshot('replay-summarise');
});

test('a chain exports to a file and imports back unchanged', async ({ app, page }) => {
  await app.open();
  await app.openChain('demo-summarise-then-answer');
  const downloading = page.waitForEvent('download');
  await page.getByTestId('library.export').click();
  const download = await downloading;
  const path = await download.path();
  const exported = JSON.parse(await readFile(path, 'utf8'));
  const original = JSON.parse(await readFile(new URL('../public/demo/summarise-then-answer.chain.json', import.meta.url), 'utf8'));
  expect(exported.id).toBe(original.id);
  expect(exported.steps.map((s: { id: string }) => s.id)).toEqual(original.steps.map((s: { id: string }) => s.id));

  // Importing it back gives the same chain, byte for byte when exported again.
  await page.getByTestId(`library.delete.${exported.id}`).click();
  await expect(app.libraryItem(exported.id)).toHaveCount(0);
  await page.getByTestId('library.import').setInputFiles(path);
  await expect(app.libraryItem(exported.id)).toBeVisible();
  await app.openChain(exported.id);
  const again = page.waitForEvent('download');
  await page.getByTestId('library.export').click();
  expect(await readFile(await (await again).path(), 'utf8')).toBe(await readFile(path, 'utf8'));
});

test('a hostile chain file is refused with its problems listed, and nothing stored changes', async ({ app, page }) => {
  await app.open();
  await expect(app.libraryItem('demo-summarise-then-answer')).toBeVisible();
  const before = await page.locator('[data-testid^="library.item."]').count();
  expect(before).toBeGreaterThan(0);
  await page.getByTestId('library.import').setInputFiles({
    name: 'hostile.chain.json', mimeType: 'application/json',
    buffer: Buffer.from('{"format":"seamscope.chain","version":1,"id":"x","name":"x","inputs":[],"steps":[{"id":"a","kind":"model","name":"A","config":{"__proto__":{"polluted":true},"prompt":"{nothing}"}}]}'),
  });
  const dialog = page.getByTestId('import.problems');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('__proto__');
  await expect(page.locator('[data-testid^="library.item."]')).toHaveCount(before);
  await page.getByTestId('library.import').setInputFiles({ name: 'broken.chain.json', mimeType: 'application/json', buffer: Buffer.from('{"format": "seamscope.chain",') });
  await expect(page.getByTestId('import.problems')).toContainText('not valid JSON');
  await expect(page.locator('[data-testid^="library.item."]')).toHaveCount(before);
});
