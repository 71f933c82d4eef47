import type { Locator, Page } from '@playwright/test';
import { expect, test, type AppPage } from './fixtures/app.ts';

/**
 * The panes size the way a person wants them: the replay dock, the inspector and the library
 * drag and move with the arrow keys, fold away and come back, and keep their sizes on this
 * device across a reload. At small screens every pane is still usable.
 */
const box = async (l: Locator) => {
  const b = await l.boundingBox();
  if (!b) throw new Error('not visible');
  return b;
};

async function openReplay(app: AppPage): Promise<void> {
  await app.openChain('demo-summarise-then-answer');
  await app.run();
  await app.expectRunStatus(/succeeded/i);
  await app.openLatestRun();
  await app.expectStoredReplay();
}

/** Drags a separator by (dx, dy) with the mouse, in steps as a hand would. */
async function drag(page: Page, handle: Locator, dx: number, dy: number): Promise<void> {
  const b = await box(handle);
  const x = b.x + b.width / 2;
  const y = b.y + b.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y + dy / 2, { steps: 4 });
  await page.mouse.move(x + dx, y + dy, { steps: 4 });
  await page.mouse.up();
}

test('the replay dock and the inspector resize by drag and keys, fold, and keep their sizes', async ({ app, page }) => {
  await app.open();
  await openReplay(app);
  const replay = page.getByTestId('pane.replay');
  const inspector = page.getByTestId('pane.inspector');
  const canvas = page.getByTestId('pane.canvas');

  // The run's toast stands above the dock and clear of the inspector: it covers nothing it reports on.
  const toast = page.getByTestId('toast').filter({ hasText: /succeeded/i });
  await expect(toast).toBeVisible();
  const t = await box(toast);
  expect(t.y + t.height).toBeLessThanOrEqual((await box(replay)).y);
  expect(t.x + t.width).toBeLessThanOrEqual((await box(inspector)).x);

  // Drag the dock's top edge up 150px: the dock grows by that much, the canvas shrinks.
  const before = await box(replay);
  const canvasBefore = await box(canvas);
  await drag(page, page.getByTestId('pane.replay.handle'), 0, -150);
  await expect.poll(async () => (await box(replay)).height).toBeGreaterThan(before.height + 140);
  expect((await box(replay)).height).toBeLessThan(before.height + 160);
  expect((await box(canvas)).height).toBeLessThan(canvasBefore.height - 140);
  await app.screenshot('replay-dock-dragged-1440');

  // The inspector's edge, by keyboard: focus it, two presses left widen the inspector.
  const inspectorBefore = (await box(inspector)).width;
  await page.getByTestId('pane.inspector.handle').focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect.poll(async () => (await box(inspector)).width).toBeGreaterThan(inspectorBefore + 60);
  // The arrows moved the separator, not the replay's boundary.
  await expect(page.getByTestId('replay.boundary')).toHaveText(/\(summarise\)\s*→.*\(answer\)/);

  const dock = (await box(replay)).height;
  const side = (await box(inspector)).width;
  await page.reload();
  await expect(page.getByTestId('canvas')).toBeVisible();
  await expect.poll(async () => Math.abs((await box(inspector)).width - side)).toBeLessThan(3);
  await app.openLatestRun();
  await expect.poll(async () => Math.abs((await box(replay)).height - dock)).toBeLessThan(3);

  // Fold the dock: one header line stays, with the button to bring it back; the canvas gets the room.
  await page.getByTestId('replay.fold').click();
  await expect.poll(async () => (await box(replay)).height).toBeLessThan(45);
  await expect(page.getByTestId('replay.close')).toBeInViewport();
  await expect(page.getByTestId('replay.source')).toBeHidden();
  await page.getByTestId('replay.fold').click();
  await expect.poll(async () => Math.abs((await box(replay)).height - dock)).toBeLessThan(3);
  await expect(page.getByTestId('replay.source')).toBeVisible();

  // Fold the inspector from the top bar, and bring it back at its width.
  await page.getByTestId('layout.toggle.inspector').click();
  await expect(page.getByTestId('inspector')).toBeHidden();
  await expect(page.getByTestId('layout.toggle.inspector')).toHaveAttribute('aria-pressed', 'false');
  await page.getByTestId('layout.toggle.inspector').click();
  await expect.poll(async () => Math.abs((await box(inspector)).width - side)).toBeLessThan(3);
});

test('the replay source, intermediate and received panes resize and keep their widths', async ({ app, page }) => {
  await app.open();
  await openReplay(app);
  await app.stepToBoundary(/\(summarise\)\s*→.*\(answer\)/);
  const source = page.getByTestId('replay.panes.source');
  const w = (await box(source)).width;
  const handle = page.getByRole('separator', { name: 'Resize the source and intermediate panes' });
  await drag(page, handle, 120, 0);
  await expect.poll(async () => (await box(source)).width).toBeGreaterThan(w + 110);
  const wide = (await box(source)).width;
  await page.reload();
  await app.openLatestRun();
  await app.stepToBoundary(/\(summarise\)\s*→.*\(answer\)/);
  await expect.poll(async () => Math.abs((await box(source)).width - wide)).toBeLessThan(3);
});

for (const size of [{ width: 1280, height: 720 }, { width: 1024, height: 700 }]) {
  test(`at ${size.width}×${size.height} the canvas, inspector and replay are all usable`, async ({ app, page }) => {
    await page.setViewportSize(size);
    await app.open();
    await openReplay(app);
    await app.stepToBoundary(/\(summarise\)\s*→.*\(answer\)/);
    const canvas = await box(page.getByTestId('pane.canvas'));
    const inspector = await box(page.getByTestId('pane.inspector'));
    const replay = await box(page.getByTestId('pane.replay'));
    expect(canvas.width).toBeGreaterThan(300);
    expect(canvas.height).toBeGreaterThan(200);
    expect(inspector.width).toBeGreaterThanOrEqual(279);
    expect(replay.height).toBeGreaterThan(250);
    for (const id of ['replay.next', 'replay.prev', 'replay.close', 'replay.source', 'replay.intermediate', 'replay.received']) {
      await expect(page.getByTestId(id)).toBeInViewport();
    }
    await expect(app.node('summarise')).toBeInViewport();
    await app.screenshot(`replay-${size.width}`);
    // Drag the dock down to a third: the canvas gains, the panes remain.
    await drag(page, page.getByTestId('pane.replay.handle'), 0, 80);
    await expect(page.getByTestId('replay.received')).toBeInViewport();
    await app.screenshot(`replay-dock-dragged-${size.width}`);
  });
}

test('the library folds when dragged past half its width and comes back by drag or Enter; Home and End go to its limits', async ({ app, page }) => {
  await app.open();
  const sidebar = page.getByTestId('pane.sidebar');
  const handle = page.getByTestId('pane.sidebar.handle');
  await expect(handle).toHaveAttribute('aria-valuemin', '200');
  await expect(handle).toHaveAttribute('aria-valuemax', '420');
  const width = (await box(sidebar)).width;

  // Drag the border left past half the minimum: the library folds away, the border stays.
  await drag(page, handle, -(width - 60), 0);
  await expect(sidebar).toBeHidden();
  await expect(page.getByTestId('layout.toggle.sidebar')).toHaveAttribute('aria-pressed', 'false');
  // Drag it back out: it opens at its minimum or more.
  await drag(page, handle, 240, 0);
  await expect(sidebar).toBeVisible();
  expect((await box(sidebar)).width).toBeGreaterThanOrEqual(199);

  // Keys: End widens to the maximum, Home narrows to the minimum, Enter folds and unfolds.
  await handle.focus();
  await page.keyboard.press('End');
  await expect.poll(async () => Math.round((await box(sidebar)).width)).toBe(420);
  await page.keyboard.press('Home');
  await expect.poll(async () => Math.round((await box(sidebar)).width)).toBe(200);
  await page.keyboard.press('Enter');
  await expect(sidebar).toBeHidden();
  await page.keyboard.press('Enter');
  await expect.poll(async () => Math.round((await box(sidebar)).width)).toBe(200);
  // The arrows on a focused border never reach the canvas (no node nudged, no pan).
  await page.keyboard.press('ArrowRight');
  await expect.poll(async () => Math.round((await box(sidebar)).width)).toBe(240);
});
