import { expect, test } from './fixtures/app.ts';

/**
 * The compounding estimate counts what the runs measured: after a run whose summary handoff
 * was found lossy, end-to-end success is no longer 100%, and the row says why. The panel
 * never covers the button that opens and closes it, at any screen size.
 */
for (const size of [{ width: 1440, height: 900 }, { width: 1024, height: 700 }]) {
  test(`compounding at ${size.width}×${size.height}: a lossy handoff measured in stored runs lowers the estimate`, async ({ app, page }) => {
    await page.setViewportSize(size);
    await app.open();
    await app.openChain('demo-summarise-then-answer');
    await app.run();
    await app.expectRunStatus(/succeeded/i);
    await app.expectStoredReplay();
    await page.getByTestId('replay.close').click();

    const toggle = page.getByTestId('designer.compounding');
    await toggle.click();
    const panel = page.getByTestId('compounding');
    await expect(panel.getByTestId('compounding.lossy.summarise')).toHaveText('handoff lossy in 1 of 1 stored runs');
    await expect(panel.getByLabel('summarise lossy rate')).toHaveValue('100');
    await expect(panel.getByTestId('compounding.gated')).toHaveText('0%');
    await expect(panel.getByTestId('compounding.explanation')).toContainText('uncaught');

    // The toggle is still the element under its own centre, so a click closes the panel.
    await expect(toggle).toBeInViewport({ ratio: 0.95 });
    const b = (await toggle.boundingBox())!;
    const hit = await page.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.closest('[data-testid]')?.getAttribute('data-testid'), [b.x + b.width / 2, b.y + b.height / 2]);
    expect(hit).toBe('designer.compounding');
    const p = (await panel.boundingBox())!;
    expect(p.y).toBeGreaterThanOrEqual(b.y + b.height);
    await app.screenshot(`compounding-${size.width}`);
    await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2);
    await expect(panel).toHaveCount(0);
  });
}
