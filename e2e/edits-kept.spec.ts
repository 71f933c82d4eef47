import { expect, test, type AppPage } from './fixtures/app.ts';

/**
 * Every edit is kept (issue #28, item 2): a rename undone at once, then a reload or a switch to
 * another chain, comes back as it was before the rename; a redo comes back redone. The gaps are
 * varied a little below 100 ms, faster than autosave's quiet period, so both the dropped pending
 * save and the save written as the page goes are exercised.
 */
const CHAIN = 'demo-summarise-then-answer';
const STEP = 'summarise';
const ORIGINAL = 'Summarise the policy';

/** Selects the step on the canvas and types at the end of its name in the panel. */
async function renameByTyping(app: AppPage, suffix: string): Promise<void> {
  await app.node(STEP).click();
  const name = app.page.getByTestId('inspector.name');
  await expect(name).toHaveValue(ORIGINAL);
  await name.click();
  await app.page.keyboard.press('End');
  await app.page.keyboard.type(suffix);
}

/**
 * Ctrl+Z until the panel shows the name before the rename. Typing merges into one undo step, but
 * a pause of over a second between two keys (a loaded machine) starts another, as it should.
 * Each press is seen to change the name before the next, so none is pressed after the last undo.
 */
async function undoRename(app: AppPage): Promise<void> {
  const name = app.page.getByTestId('inspector.name');
  for (let i = 0; i < 4; i++) {
    const before = await name.inputValue();
    if (before === ORIGINAL) return;
    await app.page.keyboard.press('ControlOrMeta+Z');
    await expect(name).not.toHaveValue(before);
  }
}

/** Reloads and opens the chain again; the panel then shows what IndexedDB held. */
async function reloadAndShowStep(app: AppPage): Promise<void> {
  await app.page.reload();
  await expect(app.page.getByTestId('canvas')).toBeVisible();
  await expect(app.page.locator('.library-row.is-open')).toHaveCount(1);
  await app.openChain(CHAIN);
  await app.node(STEP).click();
}

test('a rename undone within 100 ms and reloaded at once is undone, 20 times', async ({ app, page }) => {
  test.setTimeout(240_000);
  await app.open();
  await app.openChain(CHAIN);
  for (let i = 0; i < 20; i++) {
    await renameByTyping(app, ` edit ${i}`);
    await page.waitForTimeout((i * 17) % 100);
    await undoRename(app);
    await reloadAndShowStep(app);
    await expect(page.getByTestId('inspector.name'), `round ${i}`).toHaveValue(ORIGINAL);
  }
});

test('a rename saved, then undone and reloaded at once, is undone', async ({ app, page }) => {
  await app.open();
  await app.openChain(CHAIN);
  for (let i = 0; i < 3; i++) {
    await renameByTyping(app, ` saved ${i}`);
    // The rename has landed; only the undo is left to write, as the page goes.
    await expect.poll(async () => (await app.savedChain(`Summarise, then answer from the summary`))?.steps.find((s) => s.id === STEP)?.name).toBe(`${ORIGINAL} saved ${i}`);
    await undoRename(app);
    await reloadAndShowStep(app);
    await expect(page.getByTestId('inspector.name'), `round ${i}`).toHaveValue(ORIGINAL);
  }
});

test('a rename undone within 100 ms, then another chain opened, is undone', async ({ app, page }) => {
  await app.open();
  await app.openChain(CHAIN);
  await renameByTyping(app, ' then switched');
  await page.waitForTimeout(40);
  await undoRename(app);
  await app.openChain('demo-select-quotes-then-answer');
  await app.openChain(CHAIN);
  await app.node(STEP).click();
  await expect(page.getByTestId('inspector.name')).toHaveValue(ORIGINAL);
  // And what the switch wrote is what a reload reads.
  await reloadAndShowStep(app);
  await expect(page.getByTestId('inspector.name')).toHaveValue(ORIGINAL);
});

test('a rename undone and redone within 100 ms, then reloaded, keeps the rename', async ({ app, page }) => {
  await app.open();
  await app.openChain(CHAIN);
  await renameByTyping(app, ' redone');
  await page.waitForTimeout(30);
  await page.keyboard.press('ControlOrMeta+Z');
  await page.waitForTimeout(30);
  await page.keyboard.press('ControlOrMeta+Shift+Z');
  await reloadAndShowStep(app);
  await expect(page.getByTestId('inspector.name')).toHaveValue(`${ORIGINAL} redone`);
});
