import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/app.ts';

/**
 * The canvas stays readable: Fit and Auto layout stop at a readable zoom, zoomed out far the
 * cards switch to a simple level of detail, an empty chain says what to do, a new input lands in
 * view, and Auto layout before any edge is drawn keeps the cards in a row.
 */
const zoom = async (page: Page) => Number((await page.locator('.react-flow__viewport').evaluate((e) => (e as HTMLElement).style.transform)).match(/scale\(([\d.]+)\)/)?.[1]);

for (const size of [{ width: 1024, height: 700 }, { width: 1280, height: 720 }]) {
  test(`at ${size.width}×${size.height} Fit stops at a readable zoom and zoomed-out cards keep their names legible`, async ({ app, page }) => {
    await page.setViewportSize(size);
    await app.open();
    await app.openChain('demo-support-ticket');
    await page.getByTestId('designer.fit').click();
    await expect.poll(() => zoom(page)).toBeGreaterThanOrEqual(0.7);
    await page.getByTestId('designer.layout').click();
    await expect.poll(() => zoom(page)).toBeGreaterThanOrEqual(0.7);
    // Layout's fit glides there: wait until the view has stopped, or it would undo the wheel below.
    await expect.poll(async () => { const a = await zoom(page); await page.waitForTimeout(150); return a === (await zoom(page)); }).toBe(true);
    await app.screenshot(`readability-fit-${size.width}`);
    // Zoom out with the wheel, as a person does: the cards become kind, name and status in large type.
    const canvas = (await page.getByTestId('canvas').boundingBox())!;
    await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + canvas.height / 2);
    // Small wheel steps, stopping as soon as the cards switch (just below 0.55), so the zoom the
    // legibility is read at is the switch point, not wherever a big step overshot to.
    for (let i = 0; i < 40 && (await page.locator('[data-detail="far"]').count()) === 0; i++) await page.mouse.wheel(0, 60);
    await expect(page.locator('[data-detail="far"]').first()).toBeVisible();
    const far = page.locator('[data-detail="far"] .far-name').first();
    // (Mid-move a card can be swapped for its other level of detail: both are read again until settled.)
    const rendered = async () => (await far.evaluate((e) => parseFloat(getComputedStyle(e).fontSize)).catch(() => 0)) * ((await zoom(page)) || 0);
    await expect.poll(async () => (await rendered()) || 0).toBeGreaterThanOrEqual(9);
    await app.screenshot(`readability-far-${size.width}`);
    // Fit brings the full cards back.
    await page.keyboard.press('f');
    await expect(page.locator('[data-detail="far"]')).toHaveCount(0);
  });
}

test('an empty chain says what to do; Add input lands in view; Auto layout before edges keeps a row', async ({ app, page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await app.open();
  await page.getByTestId('library.new').click();
  await expect(page.getByTestId('canvas.empty')).toContainText('Drag a step from the palette');
  await page.getByTestId('chain.addInput').click();
  const input = page.locator('.react-flow__node-chainInput').first();
  await expect(input).toBeInViewport({ ratio: 1 });
  const toolbar = (await page.getByTestId('designer.toolbar').boundingBox())!;
  expect((await input.boundingBox())!.y).toBeGreaterThan(toolbar.y + toolbar.height);
  // Three steps dropped in a diagonal, then Auto layout: one row, in the order they were placed.
  const canvas = page.getByTestId('canvas');
  const box = (await canvas.boundingBox())!;
  for (const [x, y] of [[0.3, 0.3], [0.5, 0.55], [0.7, 0.8]] as const) {
    await page.getByTestId('palette.step.model').dragTo(canvas, { targetPosition: { x: box.width * x, y: box.height * y } });
  }
  await expect(page.getByTestId('canvas.empty')).toHaveCount(0);
  await page.getByTestId('designer.layout').click();
  // Read where the layout put them from the saved chain: at a readable zoom the row is wider than
  // the canvas, and a card out of view is not rendered.
  const positions = async () => (await app.savedChain('Untitled chain'))?.steps.map((st) => st.position) ?? [];
  // Three steps saved, all on one line (the drops were on three different heights).
  await expect.poll(async () => {
    const at = await positions();
    return at.length === 3 ? new Set(at.map((p) => p.y)).size : `${at.length} steps saved`;
  }).toBe(1);
  const xs = (await positions()).map((p) => p.x);
  expect(xs[0]).toBeLessThan(xs[1]!);
  expect(xs[1]).toBeLessThan(xs[2]!);
});
