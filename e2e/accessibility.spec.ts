import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test, type AppPage } from './fixtures/app.ts';

/**
 * Accessibility smoke test: every control has an accessible name (axe's naming rules, in the
 * states a person passes through while designing), and the canvas is usable from the keyboard
 * alone: reach a step with Tab, select it with Enter, move it with the arrows, delete it and
 * undo, add a step from the palette with Enter, connect it through the step panel.
 */
const NAMING_RULES = [
  'button-name', 'input-button-name', 'label', 'select-name', 'link-name', 'image-alt', 'svg-img-alt', 'frame-title',
  'aria-command-name', 'aria-input-field-name', 'aria-toggle-field-name', 'aria-meter-name', 'aria-progressbar-name',
  'aria-tooltip-name', 'aria-dialog-name', 'summary-name', 'document-title', 'aria-allowed-attr', 'aria-required-attr',
  'aria-valid-attr', 'aria-valid-attr-value', 'aria-prohibited-attr', 'duplicate-id-aria', 'nested-interactive',
];

async function expectAllNamed(page: Page, state: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withRules(NAMING_RULES).analyze();
  // The rules really ran over named controls (a page with no buttons would pass vacuously).
  expect(results.passes.map((p) => p.id)).toContain('button-name');
  const found = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
  expect(found, `unnamed or mislabelled controls in ${state}`).toEqual([]);
}

const focusedNodeId = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.closest('.react-flow__node')?.getAttribute('data-id') ?? null);

/** Presses Tab until focus lands on a canvas card; returns its id. */
async function tabToCanvas(page: Page, limit = 200): Promise<string> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    const id = await focusedNodeId(page);
    if (id && !id.startsWith('input:')) return id;
  }
  throw new Error(`no canvas card reached in ${limit} Tab presses`);
}

const transformOf = (app: AppPage, id: string) => app.node(id).locator('xpath=..').evaluate((e) => (e as HTMLElement).style.transform);

test.use({ viewport: { width: 1600, height: 1000 } });

test('every control has an accessible name, in the library, the canvas, each step panel and the dialogs', async ({ app, page }) => {
  await app.open();
  await app.openChain('demo-support-ticket');
  await expectAllNamed(page, 'the designer with the support-ticket chain');
  await app.showWholeChain();

  for (const step of ['extract', 'route_intent', 'grounding', 'retrieve']) {
    await app.node(step).click();
    await expect(page.locator('.panel-title code')).toHaveText(step);
    await expect(page.getByTestId('inspector.name')).toBeVisible();
    // Steps with a JSON field: wait for Monaco, so its own controls are checked too.
    if (await page.locator('.json-field').count()) await expect(page.locator('.monaco-editor').first()).toBeVisible();
    await expectAllNamed(page, `the step panel of ${step}`);
  }
  await page.getByTestId('input.ticket').click();
  await expectAllNamed(page, 'the input panel');

  await page.keyboard.press('Escape');
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectAllNamed(page, 'the shortcuts overlay');
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Profiles…' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectAllNamed(page, 'the profiles dialog');
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Export code' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectAllNamed(page, 'the export dialog');
  await page.keyboard.press('Escape');

  await app.run();
  await app.expectRunStatus(/succeeded|escalated/i);
  await app.openLatestRun();
  await expectAllNamed(page, 'the replay of a run');
});

test('the canvas from the keyboard: Tab to a step, Enter selects, arrows move, Delete and undo, palette Enter adds, bindings by select', async ({ app, page }) => {
  await app.open();
  await app.openChain('demo-summarise-then-answer');
  await page.getByTestId('library.new').focus();

  // Tab reaches the cards; each card names its kind and step.
  const first = await tabToCanvas(page);
  await expect(page.locator(`.react-flow__node[data-id="${first}"]`)).toHaveAttribute('aria-label', new RegExp(`step ${first}`));
  await page.keyboard.press('Enter');
  await expect(page.locator('.panel-title code')).toHaveText(first);

  // Arrow keys move the selected card; one undo puts it back.
  const before = await transformOf(app, first);
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Shift+ArrowDown');
  await expect.poll(() => transformOf(app, first)).not.toBe(before);
  await page.keyboard.press('ControlOrMeta+z');
  await page.keyboard.press('ControlOrMeta+z');
  await expect.poll(() => transformOf(app, first)).toBe(before);

  // Delete removes it, undo brings it back with its edges.
  const edgesBefore = await page.locator('.react-flow__edge').count();
  await page.locator(`.react-flow__node[data-id="${first}"]`).press('Delete');
  await expect(app.node(first)).toHaveCount(0);
  await page.keyboard.press('ControlOrMeta+z');
  await expect(app.node(first)).toBeVisible();
  await expect(page.locator('.react-flow__edge')).toHaveCount(edgesBefore);

  // The palette adds a step with Enter; the step panel connects it with a select and Enter.
  await page.getByTestId('palette.step.output').focus();
  await page.keyboard.press('Enter');
  await expect(app.node('output_1')).toBeVisible();
  await expect(page.locator('.panel-title code')).toHaveText('output_1');
  await page.getByRole('button', { name: 'Add binding' }).focus();
  await page.keyboard.press('Enter');
  const reads = page.getByTestId('binding.document').getByLabel('Reads').or(page.locator('.binding-row select').first());
  await reads.focus();
  await reads.selectOption('steps.answer');
  await expect(page.locator('.react-flow__edge[data-id^="data:answer->output_1"]').or(page.getByTestId(/rf__edge-data:answer->output_1/))).toHaveCount(1);

  // Escape clears the selection; ? opens the shortcut help, which lists the keyboard moves.
  await page.keyboard.press('Escape');
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog')).toContainText('Undo');
  await app.screenshot('accessibility-keyboard');
});
