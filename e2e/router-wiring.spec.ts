import { expect, test } from './fixtures/app.ts';
import { drawEdge, dropFromPalette, source, target } from './fixtures/canvas.ts';

/**
 * Routers wire as a person expects. A classifier (intent: refund | safety | other) and a router
 * on its intent, with no branches yet; the person drops two Outputs and draws the branches with
 * the mouse. Each edge asks for its label where it was drawn, offering the schema's values; a
 * label the schema cannot produce is refused, Esc cancels the edge, Enter on nothing asks again,
 * and only the explicit choice makes "otherwise". Each Output after a branch returns the
 * branch's value. Deleting a branch target asks first, naming the route, and Ctrl+Z brings both
 * back. On the demo model a refund ticket ends at the refund Output, with the classifier's value.
 */
const FIXTURE = new URL('./fixtures/router-wiring.chain.json', import.meta.url).pathname;

for (const viewport of [{ width: 1440, height: 900 }, { width: 1280, height: 720 }]) {
  test(`draw a router's branches with their labels, delete a branch target and undo, run (${viewport.width}×${viewport.height})`, async ({ app, page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    await app.open();
    await page.getByTestId('library.import').setInputFiles(FIXTURE);
    await app.openChain('fixture-router-wiring');
    const canvas = page.getByTestId('canvas');
    await dropFromPalette(page, 'output', { x: 0.8, y: 0.2 });
    await dropFromPalette(page, 'output', { x: 0.8, y: 0.8 });
    await page.keyboard.press('Escape');
    // The whole chain (Fit shows its start when it is wider than the canvas at a readable zoom,
    // as at 1280 px, and the router's handle would be out of view).
    await app.showWholeChain();
    await page.waitForTimeout(400); // handles are measured once the view stops
    const branches = canvas.locator('.react-flow__edge.edge-branch');
    const prompt = page.getByTestId('branch.prompt');
    const problem = page.getByTestId('branch.problem');

    // The first edge asks for its label, offering the values the classifier's schema allows.
    await drawEdge(page, source(app, 'route'), target(app, 'output_1'));
    await expect(prompt).toBeVisible();
    await expect(page.getByTestId('branch.label')).toBeFocused();
    await expect(prompt).toContainText('steps.classify.intent');
    await expect(prompt.getByRole('option')).toHaveText([/^refund/, /^safety/, /^other/, /^otherwise/]);
    await app.screenshot(`router-label-prompt-${viewport.width}`);
    // A label the classifier never gives is refused; Esc cancels the edge.
    await page.keyboard.type('billing');
    await page.keyboard.press('Enter');
    await expect(problem).toContainText('"billing" is not a value steps.classify.intent can take');
    await page.keyboard.press('Escape');
    await expect(prompt).toHaveCount(0);
    await expect(branches).toHaveCount(0);

    // Drawn again: typing narrows to the value, Enter takes it.
    await drawEdge(page, source(app, 'route'), target(app, 'output_1'));
    await expect(page.getByTestId('branch.label')).toBeFocused();
    await page.keyboard.type('ref');
    await expect(page.getByTestId('branch.option.refund')).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await expect(prompt).toHaveCount(0);
    await expect(branches).toHaveCount(1);
    await expect(canvas.locator('.react-flow__edge-text', { hasText: /^refund$/ })).toHaveCount(1);
    // The Output after the branch returns the branch's value.
    await expect(app.edge('data:classify->output_1:value')).toHaveCount(1);

    // The second edge is not "otherwise" by itself: Enter on nothing asks for a label; the
    // person picks "otherwise" with the arrow keys; "refund" is taken.
    await drawEdge(page, source(app, 'route'), target(app, 'output_2'));
    await expect(page.getByTestId('branch.label')).toBeFocused();
    await expect(page.getByTestId('branch.option.refund')).toHaveAttribute('aria-disabled', 'true');
    await page.keyboard.press('Enter');
    await expect(problem).toContainText('Type the label this branch is taken on, or choose otherwise.');
    await expect(branches).toHaveCount(1);
    await page.keyboard.press('ArrowUp');
    await expect(page.getByTestId('branch.option.otherwise')).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await expect(branches).toHaveCount(2);
    await expect(canvas.locator('.react-flow__edge-text', { hasText: /^otherwise$/ })).toHaveCount(1);
    await expect(app.edge('data:classify->output_2:value')).toHaveCount(1);
    await expect(page.getByTestId('run.blocked')).toHaveCount(0);

    // Deleting a branch target asks first, naming the route; Esc keeps it.
    await app.node('output_2').click();
    await page.keyboard.press('Delete');
    const confirm = page.getByTestId('confirm.branchLoss');
    await expect(confirm).toBeVisible();
    await expect(page.getByTestId('confirm.branchLoss.routes')).toHaveText('route → output_2, otherwise');
    await app.screenshot(`router-delete-target-${viewport.width}`);
    await page.keyboard.press('Escape');
    await expect(confirm).toHaveCount(0);
    await expect(app.node('output_2')).toBeVisible();
    await expect(branches).toHaveCount(2);
    // Cutting it would drop the route unseen (the clip cannot hold it): the step stays, copied, and the toast names the route.
    await page.keyboard.press('ControlOrMeta+x');
    await expect(page.getByTestId('toast').filter({ hasText: 'Copied, not cut: cutting would remove the route route → output_2 (otherwise)' })).toBeVisible();
    await expect(app.node('output_2')).toBeVisible();
    await expect(branches).toHaveCount(2);
    // Enter deletes the step and its route; Ctrl+Z brings both back.
    await page.keyboard.press('Delete');
    await expect(confirm).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(app.node('output_2')).toHaveCount(0);
    await expect(branches).toHaveCount(1);
    await expect(canvas.locator('.react-flow__edge-text', { hasText: /^otherwise$/ })).toHaveCount(0);
    await page.keyboard.press('ControlOrMeta+z');
    await expect(app.node('output_2')).toBeVisible();
    await expect(branches).toHaveCount(2);
    await expect(canvas.locator('.react-flow__edge-text', { hasText: /^otherwise$/ })).toHaveCount(1);
    await expect(app.edge('data:classify->output_2:value')).toHaveCount(1);

    // On the demo model a refund ticket takes the refund branch; its Output returns the label.
    await app.run();
    await app.expectRunStatus(/succeeded/i);
    await app.openLatestRun();
    await expect(page.getByTestId('replay.step.output_1')).toContainText('succeeded');
    await expect(page.getByTestId('replay.step.output_2')).toContainText('skipped');
    await expect(page.locator('.run-item-output').first()).toContainText('refund');
  });
}
