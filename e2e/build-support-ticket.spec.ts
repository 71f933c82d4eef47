import type { Page } from '@playwright/test';
import { drawBranch, drawEdge, dropFromPalette, source, target } from './fixtures/canvas.ts';
import { expect, test, type AppPage } from './fixtures/app.ts';

/**
 * From an empty canvas, a person builds the first four steps of the support-ticket chain
 * (extract → classify → route → escalate / draft) with the mouse and the keyboard only: steps
 * from the palette (dragged, and added with Enter), edges drawn between handles, fields typed
 * in the step panel, an output schema typed into Monaco. A design warning from seed 000 appears
 * and is fixed, undo and redo work, and after a reload everything is still there.
 */
test.use({ viewport: { width: 1600, height: 1000 } });

const EXTRACT_SCHEMA = JSON.stringify({
  type: 'object',
  properties: {
    order_id: { type: ['string', 'null'], maxLength: 40 },
    product: { type: ['string', 'null'], maxLength: 120 },
    customer_request: { type: 'string', maxLength: 500 },
  },
  required: ['order_id', 'product', 'customer_request'],
  additionalProperties: false,
});

const CLASSIFY_SCHEMA = JSON.stringify({
  type: 'object',
  properties: {
    intent: { type: 'string', enum: ['return', 'exchange', 'refund', 'legal', 'safety', 'other'] },
    urgency: { type: 'string', enum: ['low', 'normal', 'high', 'critical'] },
  },
  required: ['intent', 'urgency'],
  additionalProperties: false,
});

const NO_DEFINED_BEHAVIOUR = 'model_1 → model_2: No defined behaviour when the intermediate arrives wrong';


/** Fit view animates; handles must be measured once the view has stopped moving. */
async function viewSettled(page: Page): Promise<void> {
  const viewport = page.locator('.react-flow__viewport');
  let last = '';
  await expect.poll(async () => {
    const now = await viewport.evaluate((e) => (e as HTMLElement).style.transform);
    const same = now === last;
    last = now;
    return same;
  }, { intervals: [150] }).toBe(true);
}


/** Selects a step with a click and names it (the id stays; the name is what the card shows). */
async function openStep(app: AppPage, page: Page, id: string, name?: string): Promise<void> {
  await app.node(id).click();
  await expect(page.locator('.panel-title code')).toHaveText(id);
  if (name) {
    await app.typeInto(page.getByTestId('inspector.name'), name);
    await expect(app.node(id)).toContainText(name);
  }
}

async function typePrompt(page: Page, text: string): Promise<void> {
  const prompt = page.getByTestId('inspector.field.prompt');
  await prompt.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

test('build the first four steps of the support-ticket chain from an empty canvas, fix a design warning, undo, redo, reload', async ({ app, page }) => {
  await app.open();
  await page.getByTestId('library.new').click();
  const canvas = page.getByTestId('canvas');
  await expect(canvas.locator('.react-flow__node')).toHaveCount(0);
  await app.typeInto(page.getByTestId('chain.name'), 'Support ticket (sketched)');

  // The chain's input: the ticket, untrusted.
  await page.getByTestId('chain.addInput').click();
  const inputName = page.getByLabel('Name', { exact: true });
  await app.typeInto(inputName, 'ticket');
  await inputName.press('Enter');
  await page.getByLabel('Trust').selectOption('untrusted');
  await expect(page.getByTestId('input.ticket')).toContainText('untrusted');

  // Steps: three dragged from the palette, one added from the keyboard (Tab to it, Enter), one more dragged.
  await dropFromPalette(page, 'model', { x: 0.12, y: 0.3 });
  await dropFromPalette(page, 'model', { x: 0.38, y: 0.3 });
  await dropFromPalette(page, 'router', { x: 0.64, y: 0.3 });
  await page.getByTestId('palette.step.escalate').focus();
  await page.keyboard.press('Enter');
  await dropFromPalette(page, 'model', { x: 0.88, y: 0.72 });
  await expect(canvas.locator('.react-flow__node-step')).toHaveCount(5);
  await expect(app.node('escalate_1')).toBeVisible();

  // Move the keyboard-added card with the arrow keys: it is selected, so arrows move it.
  const before = await app.node('escalate_1').locator('xpath=..').evaluate((e) => (e as HTMLElement).style.transform);
  await app.node('escalate_1').click();
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('Shift+ArrowDown');
  await expect.poll(() => app.node('escalate_1').locator('xpath=..').evaluate((e) => (e as HTMLElement).style.transform)).not.toBe(before);

  // Fit everything in view from the keyboard (the input sits left of the first step).
  await page.keyboard.press('Escape');
  await page.keyboard.press('f');
  await expect(page.getByTestId('input.ticket')).toBeInViewport();
  await viewSettled(page);

  // Edges: ticket → extract → classify → route; route → draft (chosen as "otherwise"), route → escalate
  // (a route on "legal", typed in its label prompt); classify → escalate (what the person gets, which the
  // branch already bound), extract → draft (the facts).
  await drawEdge(page, page.getByTestId('input.ticket').locator('.react-flow__handle.source'), target(app, 'model_1'));
  await drawEdge(page, source(app, 'model_1'), target(app, 'model_2'));
  await drawEdge(page, source(app, 'model_2'), target(app, 'router_1'));
  await drawBranch(page, source(app, 'router_1'), target(app, 'model_3'), 'otherwise');
  await drawBranch(page, source(app, 'router_1'), target(app, 'escalate_1'), 'legal');
  await drawEdge(page, source(app, 'model_2'), target(app, 'escalate_1'));
  await drawEdge(page, source(app, 'model_1'), target(app, 'model_3'));
  await expect(app.edge('input:ticket->model_1:ticket')).toHaveCount(1);
  await expect(app.edge('data:model_1->model_2:model_1')).toHaveCount(1);
  await expect(app.edge('data:model_2->router_1:value')).toHaveCount(1);
  await expect(app.edge('data:model_2->escalate_1:value')).toHaveCount(1);
  await expect(app.edge('data:model_1->model_3:model_1')).toHaveCount(1);
  await expect(canvas.locator('.react-flow__edge.edge-branch')).toHaveCount(2);
  await expect(canvas.locator('.react-flow__edge-text', { hasText: 'otherwise' })).toHaveCount(1);

  // extract: prompt and schema.
  await openStep(app, page, 'model_1', 'extract');
  await typePrompt(page, 'Extract facts from the customer support ticket below. Use null when the ticket does not state a value.\n\nTicket:\n{ticket}');
  const extractSchema = page.getByTestId('inspector.field.outputSchema');
  await app.setEditorText(extractSchema, EXTRACT_SCHEMA);
  await expect(app.node('model_1')).toContainText('customer_request');

  // classify: reads the facts, labels intent and urgency.
  await openStep(app, page, 'model_2', 'classify');
  await typePrompt(page, 'Classify the request into one intent and one urgency.\n\nFacts:\n{model_1}');
  await app.setEditorText(page.getByTestId('inspector.field.outputSchema'), CLASSIFY_SCHEMA);
  await expect(app.node('model_2')).toContainText('intent');

  // route: on intent; the drawn route has the value and label typed in its prompt.
  await openStep(app, page, 'router_1', 'route intent');
  const field = page.getByTestId('inspector.field.field');
  await app.typeInto(field, 'intent');
  await expect(page.getByTestId('inspector.field.defaultTo')).toHaveValue('model_3');
  await expect(page.getByLabel('Route 1: label value')).toHaveValue('legal');
  await expect(page.getByLabel('Route 1: edge label')).toHaveValue('legal');
  await expect(page.getByLabel('Route 1: go to')).toHaveValue('escalate_1');
  await expect(canvas.locator('.react-flow__edge-text', { hasText: /^legal$/ })).toHaveCount(1);

  // The escalation says why; the draft reads the facts.
  await openStep(app, page, 'escalate_1', 'to human');
  await app.typeInto(page.getByTestId('inspector.field.reason'), 'Legal tickets go straight to a person, with no draft.');
  await openStep(app, page, 'model_3', 'draft');
  await typePrompt(page, 'Draft a reply to the customer from these facts only.\n\nFacts:\n{model_1}');
  await expect(page.getByTestId('problems')).toContainText('No problems.');

  // Seed 000's warning on the extract → classify boundary: nothing defined when the facts arrive wrong.
  const lint = page.getByTestId('lint');
  await expect(lint).toContainText(NO_DEFINED_BEHAVIOUR);
  await expect(app.node('model_2').getByTestId('step.model_2.lint')).toBeVisible();
  await app.screenshot('build-support-ticket-warning');
  // Click the warning: it selects the step it is about.
  await lint.getByTestId('lint.item').filter({ hasText: NO_DEFINED_BEHAVIOUR }).click();
  await expect(page.locator('.panel-title code')).toHaveText('model_2');
  // Fix it on the producer: escalate when extraction keeps failing.
  await openStep(app, page, 'model_1');
  await page.getByTestId('inspector.field.onFail').selectOption('escalate');
  await expect(lint).not.toContainText(NO_DEFINED_BEHAVIOUR);

  // Undo brings the warning back, redo fixes it again.
  await page.keyboard.press('Escape');
  await page.keyboard.press('ControlOrMeta+z');
  await expect(lint).toContainText(NO_DEFINED_BEHAVIOUR);
  await page.keyboard.press('ControlOrMeta+Shift+z');
  await expect(lint).not.toContainText(NO_DEFINED_BEHAVIOUR);
  await app.screenshot('build-support-ticket-built');

  // Reload: the chain opens again with every step, edge, field and schema.
  await page.waitForTimeout(700); // autosave runs 400 ms after the last edit
  await page.reload();
  await expect(page.locator('.library-row.is-open')).toContainText('Support ticket (sketched)');
  await expect(canvas.locator('.react-flow__node-step')).toHaveCount(5);
  for (const [id, name] of [['model_1', 'extract'], ['model_2', 'classify'], ['router_1', 'route intent'], ['escalate_1', 'to human'], ['model_3', 'draft']] as const) {
    await expect(app.node(id)).toContainText(name);
  }
  await expect(app.edge('data:model_1->model_2:model_1')).toHaveCount(1);
  await expect(canvas.locator('.react-flow__edge-text', { hasText: /^legal$/ })).toHaveCount(1);
  await expect(page.getByTestId('input.ticket')).toContainText('untrusted');
  await openStep(app, page, 'model_2');
  await expect(page.getByTestId('inspector.field.prompt')).toHaveValue(/\{model_1\}/);
  await expect(page.getByTestId('inspector.field.outputSchema').locator('.monaco-editor')).toContainText('critical');
  await openStep(app, page, 'model_1');
  await expect(page.getByTestId('inspector.field.onFail')).toHaveValue('escalate');
  await openStep(app, page, 'router_1');
  await expect(page.getByLabel('Route 1: label value')).toHaveValue('legal');
  await expect(lint).not.toContainText(NO_DEFINED_BEHAVIOUR);
  await app.screenshot('build-support-ticket-reloaded');
});
