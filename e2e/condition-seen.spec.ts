import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures/app.ts';

/**
 * A question that turns on a named condition, seen where it matters: on the handbook demo, the
 * summarise → answer edge's contract card names the definition "When does an appeal count as
 * urgent?" needs, the summarising step is warned that it is not told to keep it, and the replay
 * of a run on the offline demo model marks that condition dropped and the boundary not sufficient.
 */
const CHAIN = 'demo-summarise-handbook-condition';
const CONDITION = /seriously harm the member.s health/;

/** Moves the pointer onto an edge's label, as a person hovers it. */
async function hoverEdge(page: Page, label: Locator): Promise<void> {
  const box = await label.boundingBox();
  if (!box) throw new Error('the edge label is not on screen');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 4 });
}

for (const viewport of [{ width: 1440, height: 900 }, { width: 1280, height: 720 }]) {
  test(`the card names the condition the question needs, and the replay shows it dropped (${viewport.width}×${viewport.height})`, async ({ app, page }) => {
    await page.setViewportSize(viewport);
    await app.open();
    await expect(app.libraryItem(CHAIN)).toContainText('turns on a condition');
    await app.openChain(CHAIN);
    await expect(app.node('summarise')).toBeVisible();

    // Before any run: hovering the handoff names the condition, its clause and the question.
    await hoverEdge(page, app.edge('data:summarise->answer:summary').locator('.react-flow__edge-textwrapper'));
    const needs = page.getByTestId('contract.card.hover.conditions');
    await expect(needs).toContainText(CONDITION);
    await expect(needs).toContainText('§ 4.3');
    await expect(needs).toContainText('When does an appeal count as urgent?');
    await expect(needs).toContainText('does not ask to keep conditions');
    await app.screenshot(`condition-card-${viewport.width}`);

    // The design lint says the same of the summarising step, in plain words.
    await page.mouse.move(5, viewport.height - 5);
    await expect(page.getByTestId('contract.card.hover')).toHaveCount(0);
    const warning = page.getByTestId('lint').getByTestId('lint.item').filter({ hasText: 'not told to keep conditions' });
    await expect(warning).toContainText(CONDITION);
    await expect(warning).not.toContainText(/\b(?:seed|article|chapter)\b/i);
    await expect(app.node('summarise').getByTestId('step.summarise.lint')).toBeVisible();

    // Run on the offline demo model and replay the handoff.
    await app.run();
    await app.expectRunStatus(/succeeded/i);
    await app.openLatestRun();
    await app.stepToBoundary(/\(summarise\)\s*→.*\(answer\)/);
    const clause = page.getByTestId('replay.source').locator('mark[data-testid="replay.fact"][data-clause]', { hasText: CONDITION });
    await expect(clause).toHaveAttribute('data-state', 'dropped');
    await expect(clause).toBeInViewport();
    await expect(page.getByTestId('replay.intermediate')).not.toContainText(/seriously|harm/);
    await expect(page.getByTestId('replay.asked')).toContainText(CONDITION);
    await expect(page.getByTestId('replay.lossy')).toBeVisible();
    await expect(page.getByTestId('replay.sufficiencyEstimate')).toHaveText('Estimated insufficient');
    await clause.hover();
    await app.screenshot(`condition-replay-${viewport.width}`);
  });
}
