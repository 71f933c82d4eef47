import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures/app.ts';

/**
 * The decomposition planner on the split step's panel (seed 004): the contract-rewrite demo's
 * bound contract (202 clauses, counted with the tokenizer) planned at the recommendation, ~1.5×
 * and 3× it, the recommended column marked, the reason and the warnings shown, nothing cut off.
 */
for (const size of [{ width: 1440, height: 900 }, { width: 1280, height: 720 }]) {
  test(`contract rewrite: the planner table on the split step at ${size.width}×${size.height}`, async ({ app, page }) => {
    await page.setViewportSize(size);
    await app.open();
    await app.openChain('demo-contract-rewrite');
    // Select the split step as a person does: a click at the centre of its node.
    const node = app.node('split');
    await expect(node).toBeVisible();
    const box = (await node.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);

    const planner = page.getByTestId('planner');
    await expect(planner.getByTestId('planner.table')).toBeVisible();
    const heads = planner.locator('thead th[data-testid^="planner.col."]');
    await expect(heads).toHaveText([/^11\s*★$/, '17', '33']);
    await expect(planner.getByTestId('planner.recommended')).toHaveCount(1);
    await expect(planner.getByTestId('planner.col.11')).toHaveClass(/is-recommended/);
    await expect(planner.getByTestId('planner.why')).toContainText('11 groups: the fewest whose largest rewrite');
    await expect(planner.getByTestId('planner.why')).toContainText('10 would need');
    // The split step's own greedy grouping needs as many groups as the fewest that fit.
    await expect(planner.getByTestId('planner.configured')).toContainText('As configured, this step makes 11 groups');
    // One long clause (16.16) stands alone, and the split keeps few of the clause pairs.
    await expect(planner.getByTestId('planner.warning')).toHaveCount(2);
    await expect(planner.getByTestId('planner.warning').first()).toContainText('Unit 16.16 alone projects');
    const seams = planner.locator('tbody tr', { hasText: 'Seams' }).locator('td');
    await expect(seams).toHaveText(['10', '16', '32']);

    // Nothing overflows the inspector: the table fits its scroll box, and the panel its pane.
    await planner.scrollIntoViewIfNeeded();
    const fits = await planner.evaluate((el) => {
      const scroll = el.querySelector('.table-scroll')!;
      const pane = el.closest('.inspector-scroll')!;
      return { table: scroll.scrollWidth <= scroll.clientWidth + 1, pane: pane.scrollWidth <= pane.clientWidth + 1 };
    });
    expect(fits).toEqual({ table: true, pane: true });
    // The table reads as a table to assistive technology, and its text (warnings too) has contrast.
    const axe = await new AxeBuilder({ page }).include('[data-testid="planner"]').withRules(['th-has-data-cells', 'td-headers-attr', 'scope-attr-valid', 'color-contrast', 'heading-order']).analyze();
    expect(axe.passes.map((p) => p.id)).toContain('color-contrast');
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`)).toEqual([]);
    await app.screenshot(`planner-${size.width}`);

    // A granularity from the table becomes the step's: it then makes exactly that many groups.
    await planner.getByTestId('planner.use.17').click();
    await expect(planner.getByTestId('planner.use.17')).toHaveAttribute('aria-pressed', 'true');
    await expect(planner.getByTestId('planner.configured')).toHaveText('As configured, this step makes 17 groups, balanced by tokens.');
    await expect(page.getByTestId('inspector.field.groups')).toHaveValue('17');
    await expect(app.node('split')).toContainText('17 groups, balanced by tokens');
    await page.keyboard.press('Control+Z');
    await expect(planner.getByTestId('planner.configured')).toContainText('As configured, this step makes 11 groups: it fills');

    // The table follows the step's config: a doubled cap needs fewer groups.
    await page.getByTestId('inspector.field.outputCap').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('8000');
    await expect(heads).toHaveText([/^7\s*★$/, '11', '21']);
    await expect(planner.getByTestId('planner.why')).toContainText('of the 8,000-token cap');
  });
}
