import type { Page } from '@playwright/test';
import { expect, test, type AppPage } from './fixtures/app.ts';

/**
 * Every Monaco editor takes every key a person types: spaces, Enter, Tab, Backspace, braces and
 * quotes. Typed with page.keyboard only; the result is read back from the saved chain (or the
 * fork dialog's validation), never from what the test set. React Flow's Space (pan), Delete and
 * the designer's single-letter shortcuts must never take a key from an editor or a dialog.
 */

async function newChainWithStep(app: AppPage, page: Page, name: string, kind: string): Promise<string> {
  await app.open();
  await page.getByTestId('library.new').click();
  const chainName = page.getByTestId('chain.name');
  await chainName.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(name);
  await page.keyboard.press('Enter');
  await page.getByTestId(`palette.step.${kind}`).focus();
  await page.keyboard.press('Enter');
  const id = `${kind}_1`;
  await expect(app.node(id)).toBeVisible();
  await app.node(id).click();
  await expect(page.locator('.panel-title code')).toHaveText(id);
  return id;
}

test('the output schema editor keeps typed spaces, newlines, tabs, braces and quotes', async ({ app, page }) => {
  const id = await newChainWithStep(app, page, 'Typed schema', 'model');
  const field = page.getByTestId('inspector.field.outputSchema');
  await app.typeInEditor(field, [
    '{',
    '"type": "object",',
    '"properties": { "reply": { "type": "string", "description": "a short polite reply" } },',
    '"required": ["reply"]',
  ]);
  // Backspace and Tab: a typo deleted, then a key indented with Tab.
  await page.keyboard.type(',\n"additionalPropertiesX');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('": false');
  // Space pressed on its own (React Flow's pan key) is typed, not swallowed.
  await expect(page.getByTestId('canvas').locator('.react-flow__node')).toHaveCount(1);
  await expect(app.node(id)).toContainText('reply', { timeout: 5_000 });
  await expect.poll(async () => (await app.savedChain('Typed schema'))?.steps[0]?.config.outputSchema).toEqual({
    type: 'object',
    properties: { reply: { type: 'string', description: 'a short polite reply' } },
    required: ['reply'],
    additionalProperties: false,
  });
  // Tab inside the editor indents (it does not move focus out).
  await page.keyboard.press('ControlOrMeta+Home');
  await page.keyboard.press('Tab');
  await expect(field.locator('.view-line').first()).toHaveText(/^\s+\{/);
  // Delete and Backspace in the editor never remove the selected step.
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Delete');
  await expect(app.node(id)).toBeVisible();
});

test('keys typed in the gate check editor and a text box are never canvas shortcuts', async ({ app, page }) => {
  const id = await newChainWithStep(app, page, 'Typed gate', 'gate');
  const check = page.getByTestId('inspector.field.check');
  await app.typeInEditor(check, ['{ "kind": "schema", "schema": { "type": "object", "description": "has a b c" } }']);
  await expect.poll(async () => (await app.savedChain('Typed gate'))?.steps[0]?.config.check).toMatchObject({ kind: 'schema', schema: { description: 'has a b c' } });
  // V, H, F and ? typed into the name box stay text; the tool and the overlay do not change.
  const name = page.getByTestId('inspector.name');
  await name.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('Have a valid form? yes');
  await expect(name).toHaveValue('Have a valid form? yes');
  await expect(page.getByTestId('shortcuts')).toHaveCount(0);
  await expect(app.node(id)).toContainText('Have a valid form? yes');
  // Delete in a text box deletes text, not the step.
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Delete');
  await expect(app.node(id)).toBeVisible();
});

test('the fork editor keeps typed spaces and quotes', async ({ app, page }) => {
  await app.open();
  await app.openChain('demo-summarise-then-answer');
  await app.run();
  await app.expectRunStatus(/succeeded/i);
  await app.openLatestRun();
  await app.expectStoredReplay();
  await page.getByTestId('replay.fork.summarise').click();
  const editor = page.getByTestId('fork.editor');
  await app.typeInEditor(editor, ['{ "summary": "appeal within 180 calendar days"']);
  await expect(page.getByTestId('fork.errors')).toHaveCount(0);
  await expect(editor.locator('.view-lines')).toContainText('appeal within 180 calendar days');
  // Space in the dialog, outside the editor, does not pan or close anything either.
  await expect(page.getByTestId('fork')).toBeVisible();
});

test('an editor holding invalid text shows in Problems and on the card, and Run says what blocks it', async ({ app, page }) => {
  const id = await newChainWithStep(app, page, 'Invalid schema', 'model');
  const field = page.getByTestId('inspector.field.outputSchema');
  await app.typeInEditor(field, ['{ "type": "object", "properties": { "reply": { "type": "strin']);
  await expect(page.getByTestId('problems')).toContainText('Output schema not saved');
  await expect(app.node(id).getByTestId(`step.${id}.problems`)).toBeVisible();
  await expect(page.getByTestId('run.open')).toBeDisabled();
  await expect(page.getByTestId('run.blocked')).toHaveText('Unsaved edit');
  await expect(page.getByTestId('run.blocked')).toHaveAttribute('title', /output schema is not saved/);
  // Finish the word: the schema is valid, saved, and nothing blocks on its account.
  await page.keyboard.type('g');
  await expect(page.getByTestId('problems')).not.toContainText('not saved');
  await expect(page.getByTestId('run.blocked')).not.toHaveText('Unsaved edit');
});

test('the Run dialog will not start with a required input left empty', async ({ app, page }) => {
  await app.open();
  await app.openChain('demo-summarise-then-answer');
  await page.getByTestId('run.open').click();
  const question = page.getByTestId('run.input.question');
  await question.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  await expect(page.getByTestId('run.start')).toBeDisabled();
  await expect(page.getByTestId('run.dialog.blocked')).toContainText('question is required');
  await page.keyboard.type('How long do I have to appeal?');
  await expect(page.getByTestId('run.start')).toBeEnabled();
});
