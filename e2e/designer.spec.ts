import type { Page } from '@playwright/test';
import { AppPage, expect, mock, MOCK_URL, test } from './fixtures/app.ts';

/**
 * The designer: editing with the mouse and keyboard (palette drag, multi-select, copy/paste
 * across chains, undo/redo of panel edits, auto layout, shortcuts), the boundary contract card
 * on every edge, the step panel's helpers, the compounding estimate, the library (rename,
 * delete with undo, revisions, drop to import, two tabs) and endpoint profiles (test
 * connection, CORS, endpoints named by imported chains).
 */
const DEMO = 'demo-summarise-then-answer';

async function openDemo(app: AppPage, page: Page): Promise<void> {
  await app.open();
  await app.openChain(DEMO);
  await expect(page.getByTestId('designer.toolbar')).toBeVisible();
}

const stepIds = (page: Page) => page.getByTestId('canvas').locator('.react-flow__node-step').evaluateAll((els) => els.map((e) => e.getAttribute('data-id')));
const transformOf = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"]`).evaluate((e) => (e as HTMLElement).style.transform);

test('drag from the palette, multi-select, copy and paste within and across chains, undo and redo', async ({ app, page }) => {
  await openDemo(app, page);
  const canvas = page.getByTestId('canvas');
  const box = (await canvas.boundingBox())!;
  await page.getByTestId('palette.step.gate').dragTo(canvas, { targetPosition: { x: box.width * 0.5, y: box.height * 0.8 } });
  await expect(app.node('gate_1')).toBeVisible();

  // Shift-click adds to the selection; the inspector then speaks for all of them.
  await app.node('summarise').click();
  await app.node('answer').click({ modifiers: ['Shift'] });
  await expect(page.getByTestId('inspector.selection')).toContainText('2 steps selected');
  await expect(canvas.locator('.react-flow__node.selected')).toHaveCount(2);

  // Clear, then select the same two with a Shift-drag box on the empty canvas.
  await page.keyboard.press('Escape');
  await expect(canvas.locator('.react-flow__node.selected')).toHaveCount(0);
  const a = (await app.node('summarise').boundingBox())!;
  const b = (await app.node('answer').boundingBox())!;
  await page.keyboard.down('Shift');
  await page.mouse.move(a.x - 12, a.y - 40);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, b.y + b.height / 2, { steps: 5 });
  await page.mouse.move(b.x + b.width + 20, b.y + b.height + 30, { steps: 5 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  await expect(page.getByTestId('inspector.selection')).toContainText('2 steps selected');
  await expect(page.getByTestId('inspector.selection')).toContainText('summarise, answer');

  // The select tool (for touchpads): a plain drag on the empty canvas draws the box; the choice sticks.
  await page.keyboard.press('Escape');
  await page.getByTestId('designer.tool.select').click();
  await expect(page.getByTestId('designer.tool.select')).toHaveAttribute('aria-pressed', 'true');
  await page.mouse.move(a.x - 12, a.y - 40);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, b.y + b.height / 2, { steps: 5 });
  await page.mouse.move(b.x + b.width + 20, b.y + b.height + 30, { steps: 5 });
  await page.mouse.up();
  await expect(page.getByTestId('inspector.selection')).toContainText('summarise, answer');
  await expect.poll(() => page.evaluate(() => localStorage.getItem('seamscope.canvasTool'))).toBe('select');
  await page.keyboard.press('h');
  await expect(page.getByTestId('designer.tool.pan')).toHaveAttribute('aria-pressed', 'true');

  await page.keyboard.press('ControlOrMeta+c');
  await page.keyboard.press('ControlOrMeta+v');
  await expect(app.node('summarise_1')).toBeVisible();
  await expect(app.node('answer_1')).toBeVisible();
  // The copy of "answer" reads the copy of "summarise": refs were rewired.
  await expect(app.edge('data:summarise_1->answer_1:summary')).toHaveCount(1);
  await expect(page.getByTestId('inspector.selection')).toContainText('summarise_1, answer_1');
  await app.screenshot('designer-pasted');

  // One undo removes the whole paste, a redo brings it back.
  await page.getByTestId('designer.undo').click();
  await expect(app.node('summarise_1')).toHaveCount(0);
  await page.keyboard.press('ControlOrMeta+Shift+z');
  await expect(app.node('summarise_1')).toBeVisible();

  // Into another chain of the same tab: the steps land, references to missing steps dropped.
  await app.openChain('demo-select-quotes-then-answer');
  await app.showWholeChain();
  const before = (await stepIds(page)).length;
  await page.getByTestId('canvas').locator('.react-flow__pane').click({ position: { x: 20, y: 200 } });
  await page.keyboard.press('ControlOrMeta+v');
  await expect.poll(async () => {
    await app.showWholeChain();
    return (await stepIds(page)).length;
  }).toBe(before + 2);
  await app.screenshot('designer-pasted-other-chain');
});

test('undo and redo a panel edit, typing merged into one step; auto layout is one undo step', async ({ app, page }) => {
  await openDemo(app, page);
  await app.node('answer').click();
  const prompt = page.getByTestId('inspector.field.prompt');
  const original = await prompt.inputValue();
  await prompt.click();
  await page.keyboard.press('ControlOrMeta+End');
  await prompt.pressSequentially(' Cite the section.', { delay: 15 });
  await expect(prompt).toHaveValue(`${original} Cite the section.`);

  // Ctrl+Z in the panel undoes the whole burst of typing, through the editor's history.
  await page.keyboard.press('ControlOrMeta+z');
  await expect(prompt).toHaveValue(original);
  await page.keyboard.press('ControlOrMeta+Shift+z');
  await expect(prompt).toHaveValue(`${original} Cite the section.`);

  // The demo is laid out already: the person first drags a card out of place, so the layout has something to move.
  const card = (await app.node('answer').boundingBox())!;
  const laidOut = await transformOf(page, 'answer');
  await page.mouse.move(card.x + card.width / 2, card.y + 12);
  await page.mouse.down();
  await page.mouse.move(card.x + card.width / 2, card.y + 140, { steps: 8 });
  await page.mouse.up();
  await expect.poll(() => transformOf(page, 'answer')).not.toBe(laidOut);
  const before = await transformOf(page, 'answer');
  await page.getByTestId('designer.layout').click();
  await expect.poll(() => transformOf(page, 'answer')).not.toBe(before);
  await app.screenshot('designer-auto-layout');
  await page.getByTestId('designer.undo').click();
  await expect.poll(() => transformOf(page, 'answer')).toBe(before);
});

test('the boundary contract card shows on edge hover and in the panel; open questions are marked', async ({ app, page }) => {
  await openDemo(app, page);
  const edge = app.edge('data:summarise->answer:summary');
  await expect(edge.locator('.react-flow__edge-text')).toContainText('⚠');
  await edge.locator('.react-flow__edge-textwrapper').hover();
  const hover = page.getByTestId('contract.card.hover');
  await expect(hover).toBeVisible();
  await expect(hover).toContainText('summarise');
  await expect(hover).toContainText('Consumer holds the source');
  await expect(page.getByTestId('contract.card.hover.open')).toContainText('neither holds the source nor gets provenance');
  await app.screenshot('designer-contract-hover');

  await edge.locator('.react-flow__edge-textwrapper').click();
  const card = page.getByTestId('inspector').getByTestId('contract.card');
  await expect(card).toContainText('When it arrives wrong');
  await expect(card).toContainText('Undefined for the consumer: the run aborts.');
  await app.screenshot('designer-contract-panel');

  // Router branches are drawn with their labels, and say what they are.
  await app.openChain('demo-support-ticket');
  // The chain opens at its start (readable); its branches are further right.
  await app.showWholeChain();
  const branches = page.getByTestId('canvas').locator('.react-flow__edge.edge-branch');
  await expect(branches.first()).toBeVisible();
  const labels = await branches.locator('.react-flow__edge-text').allTextContents();
  expect(labels.length).toBeGreaterThan(1);
  expect(labels).toEqual(expect.arrayContaining(['critical', 'safety']));
  // The overview leaves edge labels out (they would be too small to read): the person zooms in on
  // the urgency router with the wheel until its branch labels show, then hovers one.
  const critical = branches.filter({ hasText: 'critical' }).locator('.react-flow__edge-text');
  const router = await app.node('route_urgency').boundingBox();
  if (!router) throw new Error('the urgency router is not on screen in the whole-chain view');
  await page.mouse.move(router.x + router.width, router.y + router.height / 2);
  for (let i = 0; i < 40 && !(await critical.isVisible()); i++) await page.mouse.wheel(0, -60);
  await expect(critical).toBeVisible();
  await branches.filter({ hasText: 'critical' }).locator('.react-flow__edge-textwrapper').hover();
  await expect(page.getByTestId('contract.card.hover')).toContainText('Route "critical"');
  await app.screenshot('designer-router-branches');
});

test('shortcut help, template completion, schema example, budget estimate and the compounding panel', async ({ app, page }) => {
  await openDemo(app, page);
  await page.getByTestId('canvas').locator('.react-flow__pane').click({ position: { x: 20, y: 200 } });
  await page.keyboard.press('?');
  await expect(page.getByTestId('shortcuts')).toContainText('Auto layout');
  await app.screenshot('designer-shortcuts');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('shortcuts')).toHaveCount(0);

  await app.node('answer').click();
  const prompt = page.getByTestId('inspector.field.prompt');
  await prompt.click();
  await page.keyboard.press('ControlOrMeta+End');
  await prompt.pressSequentially('\nSource: {docu');
  const suggest = page.getByTestId('template.suggest');
  await expect(suggest).toContainText('{document}');
  await expect(suggest).toContainText('adds the binding');
  await page.keyboard.press('Enter');
  await expect(prompt).toHaveValue(/Source: \{document\}$/);
  // Picking it added the binding, so the placeholder names something.
  await expect(page.getByTestId('binding.document')).toBeVisible();
  await expect(page.getByTestId('inspector').locator('.field-error', { hasText: 'names no binding' })).toHaveCount(0);
  await prompt.pressSequentially(' {nothing_here}');
  await expect(page.getByTestId('inspector').locator('.field-error', { hasText: '{nothing_here} names no binding' })).toBeVisible();

  await expect(page.getByTestId('schema.example')).toContainText('"answer": "answer example"');
  await expect(page.getByTestId('budget.estimate')).toContainText(/tokens · exact \(o200k\)/);
  await app.screenshot('designer-step-panel');

  // Mark the answer field as a dynamic enum of the bound document's section ids, then undo it.
  const dynamic = page.getByTestId('schema.dynamicEnum');
  await dynamic.getByTestId('schema.dynamicEnum.binding').selectOption('document');
  await dynamic.getByTestId('schema.dynamicEnum.apply').click();
  await expect(dynamic.getByTestId('schema.dynamicEnum.marked')).toContainText('answer← section ids of document');
  await page.getByTestId('budget').scrollIntoViewIfNeeded();
  await app.screenshot('designer-schema-tools');
  await page.getByTestId('designer.undo').click();
  await expect(dynamic.getByTestId('schema.dynamicEnum.marked')).toHaveCount(0);

  await page.getByTestId('designer.compounding').click();
  const compounding = page.getByTestId('compounding');
  await expect(compounding.getByTestId('compounding.explanation')).toHaveText(/^unchecked: 0\.95\^2 = 0\.902; with gates and one retry: /);
  await app.typeInto(compounding.getByLabel('summarise error rate'), '10');
  await expect(compounding.getByTestId('compounding.explanation')).toContainText('0.9 × 0.95 = 0.855');
  await app.screenshot('designer-compounding');
});

test('library: rename inline, delete with undo, revision history, import by dropping a file', async ({ app, page }) => {
  await openDemo(app, page);
  await page.getByTestId(`library.rename.${DEMO}`).click();
  await app.typeInto(page.getByTestId('library.rename.input'), 'Summarise (renamed)');
  await page.keyboard.press('Enter');
  await expect(app.libraryItem(DEMO)).toHaveText('Summarise (renamed)');
  await expect(page.getByTestId('chain.name')).toHaveValue('Summarise (renamed)');

  // The rename is saved; the history keeps the state the chain arrived in.
  await page.waitForTimeout(700);
  await page.getByTestId('library.history').click();
  const revisions = page.getByTestId('revisions.item');
  await expect(revisions).toHaveCount(2);
  await app.screenshot('designer-revisions');
  await page.getByTestId('revisions.restore').last().click();
  await expect(page.getByTestId('chain.name')).toHaveValue('Summarise, then answer from the summary');

  const other = 'demo-map-integrate';
  await page.getByTestId(`library.delete.${other}`).click();
  await expect(app.libraryItem(other)).toHaveCount(0);
  await page.getByTestId('toast.undo').click();
  await expect(app.libraryItem(other)).toBeVisible();
  await expect(app.node('map_units').or(page.getByTestId('canvas').locator('.react-flow__node').first())).toBeVisible();

  // A chain file dropped anywhere on the window is imported.
  const chain = { format: 'seamscope.chain', version: 1, id: 'dropped-chain', name: 'Dropped chain', inputs: [], steps: [{ id: 'only', kind: 'output', name: 'Only', position: { x: 0, y: 0 }, config: { bindings: {} } }] };
  const transfer = await page.evaluateHandle((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'dropped.chain.json', { type: 'application/json' }));
    return dt;
  }, JSON.stringify(chain));
  await page.dispatchEvent('body', 'dragenter', { dataTransfer: transfer });
  await expect(page.getByTestId('library.drop')).toBeVisible();
  await page.dispatchEvent('body', 'dragover', { dataTransfer: transfer });
  await page.dispatchEvent('body', 'drop', { dataTransfer: transfer });
  await expect(app.libraryItem('dropped-chain')).toBeVisible();
  await expect(page.getByTestId('toast').filter({ hasText: 'Imported "Dropped chain"' })).toBeVisible();
});

test('two tabs on one chain: the other tab follows, or asks when it has edits of its own', async ({ app, page, context }) => {
  // The tabs' timers run on a clock the test can hold (the whole context shares it), so "both edit
  // before either saves" is arranged, not raced: typed concurrently, one tab's save could land
  // before the other's first key on a loaded machine, and that tab then rightly followed.
  await context.clock.install();
  await openDemo(app, page);
  const second = await context.newPage();
  await second.goto('/');
  await expect(second.locator('.library-row.is-open')).toHaveCount(1);
  await second.getByTestId(`library.item.${DEMO}`).click();

  // A clean tab takes the other tab's save.
  await app.typeInto(page.getByTestId('chain.name'), 'Edited in tab one');
  await expect(second.getByTestId('chain.name')).toHaveValue('Edited in tab one', { timeout: 10_000 });

  // Both edit before either saves (autosave waits for a quiet moment, on the held clock): the
  // later save is refused and that tab asks.
  await context.clock.pauseAt(Date.now() + 1_000);
  await app.typeInto(page.getByTestId('chain.description'), 'From tab one');
  await new AppPage(second).typeInto(second.getByTestId('chain.description'), 'From tab two');
  // Both hold their own text, unsaved, when the saves run.
  await expect(page.getByTestId('chain.description')).toHaveValue('From tab one');
  await expect(second.getByTestId('chain.description')).toHaveValue('From tab two');
  await context.clock.runFor(1_000);
  await context.clock.resume();
  const asks = async (p: Page) => p.getByTestId('tab.conflict').isVisible();
  await expect.poll(async () => (await asks(page)) || (await asks(second)), { timeout: 10_000 }).toBe(true);
  const asking = (await asks(page)) ? page : second;
  await asking.screenshot({ path: 'test-results/screens/designer-two-tabs.png' });
  const other = asking === page ? second : page;
  const mine = await asking.getByTestId('chain.description').inputValue();
  await asking.getByTestId('tab.conflict.keep').click();
  await expect(other.getByTestId('chain.description')).toHaveValue(mine, { timeout: 10_000 });
  await second.close();
});

test('endpoint profiles: test connection reports ok, the status, or CORS in plain words', async ({ app, page }) => {
  await app.open();
  await page.getByTestId('profile.manage').click();
  if (await page.getByTestId('profile.new').isVisible()) await page.getByTestId('profile.new').click();
  await app.typeInto(page.getByTestId('profile.form.name'), 'Mock');
  await app.typeInto(page.getByTestId('profile.form.baseUrl'), `${MOCK_URL}/v1`);
  await app.typeInto(page.getByTestId('profile.form.model'), 'gpt-4.1-mini');
  await app.typeInto(page.getByTestId('profile.form.apiKey'), 'wrong-key');
  await page.getByTestId('profile.test').click();
  await expect(page.getByTestId('profile.test.result')).toContainText('HTTP 401');
  await app.typeInto(page.getByTestId('profile.form.apiKey'), 'e2e-test-key');
  await page.getByTestId('profile.test').click();
  await expect(page.getByTestId('profile.test.result')).toContainText('Connected · HTTP 200');

  await app.typeInto(page.getByTestId('profile.form.baseUrl'), 'http://127.0.0.1:11434/v1');
  await page.getByTestId('profile.test').click();
  await expect(page.getByTestId('profile.test.cors')).toContainText(`OLLAMA_ORIGINS=${new URL(page.url()).origin}`);
  await expect(page.getByTestId('profile.test.cors')).toContainText('LM Studio');
  await expect(page.getByTestId('profile.test.cors')).toContainText('--allowed-origins');
  await app.screenshot('designer-test-connection');
});

test('an imported chain that names an endpoint gets nothing (and no key) until the person confirms it', async ({ app, page }) => {
  const elsewhere = MOCK_URL.replace('127.0.0.1', 'localhost');
  await mock.reset();
  await app.open();
  await app.addMockProfile('My mock');
  const chain = {
    format: 'seamscope.chain', version: 1, id: 'names-endpoint', name: 'Names an endpoint', inputs: [],
    steps: [{ id: 'ask', kind: 'model', name: 'Ask', position: { x: 0, y: 0 }, config: { prompt: 'Say hi', outputSchema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false } } }],
    // Another origin than the profile's (localhost, not 127.0.0.1): a profile for it does not exist.
    meta: { endpoint: { url: `${elsewhere}/elsewhere/v1`, model: 'gpt-4.1-mini' } },
  };
  await page.getByTestId('library.import').setInputFiles({ name: 'names-endpoint.chain.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(chain)) });
  const dialog = page.getByTestId('endpoint.confirm');
  await expect(dialog).toContainText(`${elsewhere}/elsewhere/v1`);
  await expect(dialog.getByTestId('endpoint.confirm.key')).toHaveValue('');
  await app.screenshot('designer-endpoint-confirm');
  await dialog.getByTestId('endpoint.confirm.no').click();
  expect((await mock.requests()).filter((r) => r.path.includes('/elsewhere/'))).toHaveLength(0);

  // Confirmed without a key: runs go there, and no Authorization header is sent.
  await page.getByTestId('chain.endpoint.use').click();
  await page.getByTestId('endpoint.confirm.yes').click();
  await expect(page.getByTestId('profile.select')).toContainText('Names an endpoint endpoint');
  await app.run();
  await app.expectRunStatus(/failed|succeeded/i);
  const calls = (await mock.requests()).filter((r) => r.path.includes('/elsewhere/'));
  expect(calls.length).toBeGreaterThan(0);
  expect(calls.every((c) => c.headers.authorization === undefined)).toBe(true);
});

test('rename a step id: edges, refs and the panel follow; a taken id says why; undo puts it back', async ({ app, page }) => {
  await openDemo(app, page);
  await expect(app.edge('data:summarise->answer:summary')).toHaveCount(1);
  await app.node('summarise').click();
  const id = page.getByTestId('inspector.id');
  await app.typeInto(id, 'answer');
  await expect(page.getByTestId('inspector.id.problem')).toHaveText('Another step is already called "answer"');
  await app.typeInto(id, 'digest');
  await expect(page.getByTestId('inspector.id.problem')).toHaveCount(0);
  await id.press('Enter');
  await expect(app.node('digest')).toBeVisible();
  await expect(app.edge('data:digest->answer:summary')).toHaveCount(1);
  await expect(page.locator('.panel-title code')).toHaveText('digest');
  await app.node('answer').click();
  await expect(page.getByTestId('binding.summary').getByLabel('Reads')).toHaveValue('steps.digest');
  await expect(page.getByTestId('problems')).toContainText('No problems.');
  await page.keyboard.press('Escape');
  await page.keyboard.press('ControlOrMeta+z');
  await expect(app.node('summarise')).toBeVisible();
  await expect(app.edge('data:summarise->answer:summary')).toHaveCount(1);
});
