import type { Locator, Page } from '@playwright/test';
import { expect, mock, test } from './fixtures/app.ts';

/**
 * Partial delivery (seed 004): while the contract rewrite runs, the assembled document fills
 * in from the top in clause order. The run goes to the mock model server (the demo model's
 * answers over real HTTP), with the group holding clause 3.1 held back for a few seconds, so
 * the groups after it finish first and wait below it as "done" placeholders.
 */

/** A click where a person clicks: the middle of the element, with the mouse. */
async function clickWithMouse(page: Page, target: Locator): Promise<void> {
  await expect(target).toBeVisible();
  const box = await target.boundingBox();
  if (!box) throw new Error('the element has no box to click');
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

/** Nothing inside the pane sticks out of it sideways. */
async function expectNoOverflow(pane: Locator): Promise<void> {
  const overflow = await pane.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const out = [...el.querySelectorAll('*')].filter((child) => {
      const r = child.getBoundingClientRect();
      return r.width > 0 && (r.right > box.right + 1 || r.left < box.left - 1);
    });
    return { scrollsSideways: el.scrollWidth > el.clientWidth + 1, out: out.length, pageSideways: document.documentElement.scrollWidth > window.innerWidth };
  });
  expect(overflow).toEqual({ scrollsSideways: false, out: 0, pageSideways: false });
}

test('the contract rewrite fills in from the top as groups finish, then shows the whole document', async ({ app, page }) => {
  await app.open();
  await mock.reset();
  await app.addMockProfile('Mock for partial delivery');
  await mock.enqueue([{ fault: 'delay', delayMs: 6000, match: '"3.1"' }]);
  await app.openChain('demo-contract-rewrite');
  // The chain opens at its start (readable); the assemble step is further right.
  await app.showWholeChain();
  await expect(app.node('assemble')).toBeVisible();

  await clickWithMouse(page, page.getByTestId('run.open'));
  await clickWithMouse(page, page.getByTestId('run.start'));

  // Live: the top two groups are assembled; the third is pending; later ones are done and wait.
  const pane = page.getByTestId('replay.assembled');
  await expect(pane).toBeVisible();
  const count = page.getByTestId('replay.assembled.count');
  await expect(count).toContainText(/^2 of \d+ groups from the top · units 1–2\.11/);
  await expect(page.getByTestId('replay.assembled.text')).toContainText('1.1 Advertising means');
  await expect(page.getByTestId('replay.assembled.group.3')).toContainText(/group 3 of \d+ pending: clauses 3(\.\d+)?–4\.8/);
  await expect(page.getByTestId('replay.assembled.group.4')).toContainText('done, waiting for the groups above');
  await expect(page.getByTestId('replay.assembledToggle')).toHaveText(/Assembled 2\/\d+/);
  // The strip at the top says the same at a glance: two assembled, the third pending, the next done.
  const chips = page.getByTestId('replay.assembled.strip').locator('li');
  await expect(chips.nth(1)).toHaveClass(/is-assembled/);
  await expect(chips.nth(2)).toHaveClass(/is-pending/);
  await expect(chips.nth(3)).toHaveClass(/is-done/);
  await expectNoOverflow(pane);
  await app.screenshot('partial-delivery-live-1440');

  // The held group comes back: the document is whole, in clause order, and the run succeeds.
  await app.expectRunStatus(/succeeded/i);
  await app.expectStoredReplay();
  const toggle = page.getByTestId('replay.assembledToggle');
  await expect(toggle).toHaveText(/Assembled (\d+)\/\1$/);
  if ((await toggle.getAttribute('aria-pressed')) !== 'true') await clickWithMouse(page, toggle);
  await expect(count).toContainText(/^(\d+) of \1 groups from the top · units 1–16\.16/);
  await expect(page.getByTestId('replay.assembled.placeholders')).toHaveCount(0);
  const text = page.getByTestId('replay.assembled.text');
  await expect(text).toContainText('3.1 ');
  await expect(text).toContainText('16.16 ');
  await expectNoOverflow(pane);
  await app.screenshot('partial-delivery-done-1440');

  await page.setViewportSize({ width: 1280, height: 720 });
  await expect(pane).toBeVisible();
  await expectNoOverflow(pane);
  await app.screenshot('partial-delivery-done-1280');
  // Back to the boundaries with the same button.
  await clickWithMouse(page, toggle);
  await expect(pane).toHaveCount(0);
});

test('the two-pass rewrite on the demo model: the reader names two groups, only those rerun, and the pane shows the repaired document', async ({ app, page }) => {
  await app.open();
  await app.openChain('demo-contract-rewrite-two-pass');
  // The chain opens at its start (readable); the reader is further right.
  await app.showWholeChain();
  await expect(app.node('reader')).toBeVisible();
  await clickWithMouse(page, page.getByTestId('run.open'));
  await clickWithMouse(page, page.getByTestId('run.start'));
  await app.expectRunStatus(/succeeded/i);
  await app.expectStoredReplay();
  // The repair map ran only the groups the reader named: two units, not eleven.
  await expect(page.getByTestId('replay.units.repair').locator('[data-testid^="replay.unit.repair."]')).toHaveCount(2);
  await expect(page.getByTestId('replay.units.rewrite').locator('[data-testid^="replay.unit.rewrite."]')).toHaveCount(11);
  const toggle = page.getByTestId('replay.assembledToggle');
  if ((await toggle.getAttribute('aria-pressed')) !== 'true') await clickWithMouse(page, toggle);
  const text = page.getByTestId('replay.assembled.text');
  await expect(text).toContainText('1.52 VerticalNet Content has the meaning');
  await expect(text).not.toContainText('Verticalnet Content');
  await expect(page.getByTestId('replay.assembled.count')).toContainText('2 rewritten again after the defect list');
  await expect(page.getByTestId('replay.assembled.strip').locator('.is-replaced')).toHaveCount(2);
  await expectNoOverflow(page.getByTestId('replay.assembled'));
  await app.screenshot('partial-delivery-two-pass-1440');
});
