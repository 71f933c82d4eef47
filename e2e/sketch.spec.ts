import { expect, mock, test } from './fixtures/app.ts';

/**
 * A person sketches a two-step chain on an empty canvas with the mouse, points it at an
 * OpenAI-compatible endpoint (the project's mock model server over real HTTP) and runs it.
 */
test('sketch two steps with the mouse and run them against an OpenAI-compatible endpoint', async ({ app, page }) => {
  await mock.reset();
  await app.open();
  await page.getByTestId('library.new').click();
  const canvas = page.getByTestId('canvas');
  await expect(canvas.locator('.react-flow__node')).toHaveCount(0);

  // Drag two model steps from the palette onto the canvas.
  const box = (await canvas.boundingBox())!;
  await page.getByTestId('palette.step.model').dragTo(canvas, { targetPosition: { x: box.width * 0.3, y: box.height * 0.4 } });
  await page.getByTestId('palette.step.model').dragTo(canvas, { targetPosition: { x: box.width * 0.65, y: box.height * 0.4 } });
  const nodes = canvas.locator('.react-flow__node');
  await expect(nodes).toHaveCount(2);

  // Connect the first step's output handle to the second step's input handle.
  const from = (await nodes.nth(0).locator('.react-flow__handle.source').first().boundingBox())!;
  const to = (await nodes.nth(1).locator('.react-flow__handle.target').first().boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 8 });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 8 });
  await page.mouse.up();
  await expect(canvas.locator('.react-flow__edge')).toHaveCount(1);

  // Write both prompts in the step panel.
  const firstId = (await nodes.nth(0).getAttribute('data-id'))!;
  await nodes.nth(0).click();
  await app.typeInto(page.getByTestId('inspector.field.prompt'), 'List the deadlines for Medicare appeals: 120-day redetermination, 180-day reconsideration.');
  await nodes.nth(1).click();
  await app.typeInto(page.getByTestId('inspector.field.prompt'), `Answer from these notes: {${firstId}}`);
  await expect(page.getByTestId('problems')).not.toContainText('names nothing');

  // Add an OpenAI-compatible profile pointing at the mock, with a key kept on this device.
  await app.addMockProfile('Mock OpenAI');

  await app.run();
  await app.expectRunStatus(/succeeded/i);
  await app.expectStoredReplay();
  await app.screenshot('sketch-run');

  const calls = (await mock.requests()).filter((r) => r.path.endsWith('/chat/completions'));
  expect(calls).toHaveLength(2);
  const body = calls[0]!.body as { model: string; response_format?: { type: string; json_schema: { strict: boolean } } };
  expect(body.model).toBe('gpt-4.1-mini');
  expect(body.response_format?.type).toBe('json_schema');
  expect(calls[0]!.headers.authorization).toBe('[redacted]');
  // The second call received the first step's output.
  expect(JSON.stringify(calls[1]!.body)).toContain('Answer from these notes');
});

test('a step calls the endpoint profile it names; the others call the run\'s profile', async ({ app, page }) => {
  await mock.reset();
  await app.open();
  await app.addMockProfile('Mock big');
  await app.addMockProfile('Mock small', undefined, 'gpt-4.1-nano');
  await app.openChain('demo-summarise-then-answer');
  await app.node('summarise').click();
  await page.getByTestId('inspector.field.profile').selectOption('Mock small');
  await page.getByTestId('profile.select').selectOption({ label: 'Mock big · gpt-4.1-mini' });
  await app.run();
  await app.expectRunStatus(/succeeded/i);
  const models = (await mock.requests()).filter((r) => r.path.endsWith('/chat/completions')).map((r) => (r.body as { model: string }).model);
  expect(models).toEqual(['gpt-4.1-nano', 'gpt-4.1-mini']);
  // The choice is the step's: it shows on the card's panel after a reload.
  await page.waitForTimeout(600);
  await page.reload();
  await app.openChain('demo-summarise-then-answer');
  await app.node('summarise').click();
  await expect(page.getByTestId('inspector.field.profile')).toHaveValue('Mock small');
});
