import type { Chain } from '../src/chain/index.ts';
import { makeBenchChain } from '../app/designer/bench-fixture.ts';
import { expect, test } from './fixtures/app.ts';

/**
 * A chain of 450 steps (the generated benchmark shape: each step reads the one before, every fifth
 * is also read two and three steps on) opened from a file, as a person's large chain comes in.
 * From 400 steps the first paint reads the configs as they are, and the real parse follows in idle
 * slices (app/designer/parse-after-paint.ts); the canvas is derived again only when a step draws
 * differently parsed (a chain file with a config the parse refuses is not imported at all, so that
 * way is held by parse-after-paint.test.ts). What shows and what an edit does must be exact.
 */
function largeChain(id: string): Chain {
  return { ...makeBenchChain(450), id, name: `Large chain ${id}`, meta: {} };
}

test('a 450-step chain from a file opens, its settings are checked after the first paint, and an edit and its undo stay exact', async ({ app, page }) => {
  await app.open();
  const chain = largeChain('large-chain');
  await page.getByTestId('library.import').setInputFiles({ name: 'large-chain.chain.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(chain)) });
  await expect(app.node('s0')).toBeVisible();
  await expect(app.edge('data:s0->s1:s0')).toHaveCount(1);
  await expect(app.node('s1')).toContainText('Summarize #1');
  // Let the idle parse of all 450 configs through (it runs in slices of idle time): every step
  // draws alike parsed, so nothing on the canvas changes.
  for (let i = 0; i < 5; i++) await page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve(), { timeout: 2000 })));
  await expect(app.edge('data:s0->s1:s0')).toHaveCount(1);
  await expect(app.edge('data:s0->s2:s0')).toHaveCount(1);

  // An edit after it: the renamed step's edges follow, in the new chain derived from parsed configs.
  await app.node('s0').click();
  const idField = page.getByTestId('inspector.id');
  await app.typeInto(idField, 'first');
  await idField.press('Enter');
  await expect(app.node('first')).toBeVisible();
  // The binding is named after the step it reads, so it follows the rename too.
  await expect(app.edge('data:first->s1:first')).toHaveCount(1);
  await expect(app.edge('data:s0->s1:s0')).toHaveCount(0);
  // While the background check of the edited chain runs, the pane does not say "No problems"
  // (read in one go, as a person sees the pane at one moment); once it has run, it does.
  const pane = await page.evaluate(() => ({ checking: document.querySelector('[data-testid="problems.checking"]') !== null, text: document.querySelector('[data-testid="problems"]')?.textContent ?? '' }));
  if (pane.checking) expect(pane.text).not.toContain('No problems.');
  await app.screenshot('large-chain-after-edit');
  await expect(page.getByTestId('problems.checking')).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByTestId('problems')).toContainText('No problems.');

  // Undo brings back the chain as it was, drawn as before.
  await page.keyboard.press('Escape');
  await page.keyboard.press('ControlOrMeta+z');
  await expect(app.node('s0')).toBeVisible();
  await expect(app.edge('data:s0->s1:s0')).toHaveCount(1);
  await expect(app.edge('data:first->s1:first')).toHaveCount(0);
});
