import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures/app.ts';

/**
 * The conditions a chain's handoff must carry, for the questions of the dataset it is evaluated
 * on: a person imports their own questions in the Evaluate view and ticks the handbook chain, goes
 * back to the designer, and the summary handoff's contract card (and the summarising step's lint)
 * names the conditions those questions turn on, saying where the questions came from.
 */
const CHAIN = 'demo-summarise-handbook-condition';
const EDGE = 'data:summarise->answer:summary';
const URGENT = /seriously harm the member.s health/;

const questions = [
  'Do I have to pay the deductible before my cleaning is covered?',
  'Does filing a grievance give me more time to appeal?',
];
const dataset = {
  name: 'handbook-questions.dataset.jsonl',
  mimeType: 'application/x-ndjson',
  buffer: Buffer.from([
    JSON.stringify({ format: 'seamscope.dataset', version: 1, name: 'Handbook questions' }),
    ...questions.map((question, i) => JSON.stringify({ id: `q${i + 1}`, inputs: { question }, expected: { facts: [] } })),
  ].join('\n') + '\n'),
};

/** Moves the pointer onto an edge's label, as a person hovers it. */
async function hoverEdge(page: Page, label: Locator): Promise<void> {
  // A person waits to see the label: after a reload React Flow keeps it hidden until it is measured,
  // and a bounding box read before that is null.
  await expect(label).toBeVisible();
  const box = await label.boundingBox();
  if (!box) throw new Error('the edge label is not on screen');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 4 });
}

for (const viewport of [{ width: 1440, height: 900 }, { width: 1280, height: 720 }]) {
  test(`the card lists the conditions the linked dataset's questions need (${viewport.width}×${viewport.height})`, async ({ app, page }) => {
    await page.setViewportSize(viewport);
    await app.open();
    await app.openChain(CHAIN);
    const label = app.edge(EDGE).locator('.react-flow__edge-textwrapper');
    const needs = page.getByTestId('contract.card.hover.conditions');

    // No dataset yet: the card reads the input's example alone.
    await hoverEdge(page, label);
    await expect(needs).toContainText(URGENT);
    await expect(needs).not.toContainText('no deductible');
    await expect(page.getByTestId('contract.card.hover.conditions.from')).toHaveCount(0);
    await page.mouse.move(5, viewport.height - 5);

    // In Evaluate: the person's own questions, and the chain ticked to run on them.
    await page.getByTestId('eval.open').click();
    await page.getByTestId('eval.import').setInputFiles(dataset);
    await expect(page.getByTestId('eval.dataset')).toContainText('Handbook questions (2 items)');
    await page.getByTestId(`eval.chain.${CHAIN}`).click();
    await page.getByTestId('view.designer').click();
    await expect(page.getByTestId('canvas')).toBeVisible();

    // Back in the designer, the handoff's card names the conditions those questions turn on.
    await hoverEdge(page, label);
    await expect(page.getByTestId('contract.card.hover.conditions.from')).toHaveText('From dataset “Handbook questions”, 2 questions, and the input’s example');
    await expect(needs).toContainText('“no deductible”');
    await expect(needs).toContainText('§ 3.1');
    await expect(needs).toContainText(`for “${questions[0]}”`);
    await expect(needs).toContainText(URGENT);
    await expect(page.getByTestId('contract.card.hover')).toBeInViewport();
    await app.screenshot(`condition-dataset-card-${viewport.width}`);

    // The summarising step's lint says the same, and where the questions came from.
    await page.mouse.move(5, viewport.height - 5);
    await expect(page.getByTestId('contract.card.hover')).toHaveCount(0);
    const warning = page.getByTestId('lint').getByTestId('lint.item').filter({ hasText: 'not told to keep conditions' });
    await expect(warning).toContainText('is asked 3 questions (2 from dataset “Handbook questions”)');
    await expect(warning).toContainText('no deductible');

    // The link is this device's: a reload finds it.
    await page.reload();
    await app.openChain(CHAIN);
    await hoverEdge(page, label);
    await expect(page.getByTestId('contract.card.hover.conditions.from')).toContainText('From dataset “Handbook questions”');
  });
}
