import { expect, test } from './fixtures/app.ts';
import { drawBranch, drawEdge, dropFromPalette, source, target } from './fixtures/canvas.ts';

/**
 * A chain with a design error does not run and "succeed". A router's branch drawn by hand to an
 * Output makes the Output return the branch's value; once the person removes that reading, the
 * Output has nothing to return: Problems counts it, the card is marked, and Run is blocked with
 * the reason beside the button. Connecting what the Output returns clears it all.
 */
for (const viewport of [{ width: 1440, height: 900 }, { width: 1280, height: 720 }]) {
  test(`a branch drawn to an Output that reads nothing blocks Run, with the reason (${viewport.width}×${viewport.height})`, async ({ app, page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    await app.open();
    await page.getByTestId('library.new').click();
    await expect(page.getByTestId('canvas.empty')).toBeVisible();
    await page.getByTestId('chain.addInput').click();
    await page.getByLabel('Name', { exact: true }).click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('ticket');
    await page.keyboard.press('Enter');

    // In three rows, so no card lands on another on a narrow canvas.
    await dropFromPalette(page, 'model', { x: 0.55, y: 0.2 });
    await dropFromPalette(page, 'router', { x: 0.3, y: 0.55 });
    await dropFromPalette(page, 'output', { x: 0.65, y: 0.8 });
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Fit', exact: true }).click();
    await page.waitForTimeout(400); // Fit animates; handles are measured once it stops
    await drawEdge(page, page.getByTestId('input.ticket').locator('.react-flow__handle.source'), target(app, 'model_1'));
    await drawEdge(page, source(app, 'model_1'), target(app, 'router_1'));
    await drawBranch(page, source(app, 'router_1'), target(app, 'output_1'), 'billing');
    await expect(page.locator('.react-flow__edge.edge-branch')).toHaveCount(1);
    // The Output after the branch returns what the branch carries (the router's value)...
    await expect(app.edge('data:model_1->output_1:value')).toHaveCount(1);
    // ...until the person removes that reading in the inspector.
    await app.node('output_1').click();
    await page.getByRole('button', { name: 'Remove value' }).click();
    await expect(app.edge('data:model_1->output_1:value')).toHaveCount(0);
    await page.keyboard.press('Escape');

    // Counted under Problems (not only a design note), and Run is blocked with the reason in words.
    const problems = page.getByTestId('problems');
    await expect(problems).toContainText('output_1 · missing-binding');
    await expect(page.locator('.problems .section-title .count').first()).not.toHaveText('0');
    await expect(page.getByTestId('run.open')).toBeDisabled();
    await expect(page.getByTestId('run.blocked')).toContainText('Output reads "value" but nothing is bound to it');
    await app.screenshot(`broken-router-${viewport.width}`);

    // A click on the reason opens the step it is about; connecting what it returns unblocks Run.
    await page.getByTestId('run.blocked').click();
    await expect(page.locator('.panel-title code')).toHaveText('output_1');
    await drawEdge(page, source(app, 'model_1'), target(app, 'output_1'));
    await expect(page.getByTestId('run.blocked')).toHaveCount(0);
    await expect(page.getByTestId('run.open')).toBeEnabled();
  });
}
