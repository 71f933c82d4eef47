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
  // A person waits to see the label: React Flow keeps it hidden until it is measured, and a
  // bounding box read before that is null.
  await expect(label).toBeVisible();
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

    // Clicked, the edge's card in the panel says the same.
    await page.mouse.down();
    await page.mouse.up();
    await expect(page.getByTestId('inspector').getByTestId('contract.card.conditions')).toContainText(CONDITION);

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

test('on a document of the person\'s own, the replay marks the exception the summary dropped', async ({ app, page }) => {
  await app.open();
  await app.openChain('demo-summarise-then-answer');
  // A short tenancy text typed in place of the statute: no demo file, its own headings and rules.
  const lease = [
    '# Tenancy terms', '', '## Deposit', '',
    'The tenant pays a deposit of $900 within 7 days of signing the lease.',
    'The landlord keeps the deposit if the tenant moves out before the end of the term, unless the tenant finds a replacement tenant.',
    '', '## Repairs', '', 'The landlord fixes a heating fault within 48 hours of the report.',
  ].join('\n');
  await app.run({ document: lease, question: 'I found a replacement tenant. Can the landlord keep my deposit if I move out early?' });
  await app.expectRunStatus(/succeeded/i);
  await app.openLatestRun();
  await app.stepToBoundary(/\(summarise\)\s*→.*\(answer\)/);
  const clause = page.getByTestId('replay.source').locator('mark[data-testid="replay.fact"][data-clause="exception"]', { hasText: 'unless the tenant finds a replacement tenant' });
  await expect(clause).toHaveAttribute('data-state', 'dropped');
  await expect(clause).toHaveAttribute('data-lead', 'true');
  await expect(page.getByTestId('replay.lead')).toContainText('unless the tenant finds a replacement tenant');
  await expect(page.getByTestId('replay.sufficiencyEstimate')).toHaveText('Estimated insufficient');
  await app.screenshot('condition-replay-own-document');
});
