import { readFile } from 'node:fs/promises';
import { AppPage, expect, mock, test } from './fixtures/app.ts';

/**
 * The runner's side of the seams: map units delivered as they finish, a run whose tab closed
 * mid-way shown as interrupted and resumed without repeating finished units, streamed text on
 * the running step, cost per attempt, step and run, and per-step metrics across runs.
 */
const chatCalls = async () => (await mock.requests()).filter((r) => r.path.endsWith('/chat/completions'));
const isIntegrate = (r: { body: unknown }) => JSON.stringify(r.body).includes('Integrate the ticket summaries');

test('map units appear as they finish; a reload leaves the run interrupted; Resume finishes it without calling finished units again', async ({ app, page }) => {
  await mock.reset();
  await app.open();
  await app.addMockProfile('Mock priced', { input: 2, output: 8 });
  await app.openChain('demo-map-integrate');
  // Two units never answer; the other ten finish while those two are still out.
  await mock.enqueue([{ fault: 'hang' }, { fault: 'hang' }]);
  await app.run();
  const units = page.getByTestId('replay.units.per_ticket');
  // Ten finish (the empty ticket T07 as a typed error unit, after its retry); two are still out.
  await expect(units.locator('.unit.is-ok, .unit.is-error')).toHaveCount(10, { timeout: 30_000 });
  await expect(units.locator('.unit.is-waiting')).toHaveCount(2);
  await expect(units.locator('.unit')).toHaveCount(12);
  await expect(page.getByTestId('run.status')).toHaveText(/running/i);
  await app.screenshot('seams-map-units-live');
  const before = (await chatCalls()).length;
  expect(before).toBeGreaterThanOrEqual(12);

  // The tab goes away mid-run.
  await page.reload();
  await expect(page.getByTestId('canvas')).toBeVisible();
  await app.openChain('demo-map-integrate');
  const item = page.locator('[data-testid^="runs.item."]').first();
  await expect(item).toContainText('interrupted');
  const runId = (await item.getAttribute('data-testid'))!.slice('runs.item.'.length);
  // The run resumes on the profile it recorded, whichever is selected now: the demo model here,
  // yet the calls below still go to the mock endpoint.
  await page.getByTestId('profile.select').selectOption('demo');
  await page.getByTestId(`runs.resume.${runId}`).click();
  await app.expectRunStatus(/succeeded/i);
  await expect(page.getByTestId(`runs.item.${runId}`)).toContainText('succeeded');

  // Only the two unfinished units and the integration were called.
  const after = (await chatCalls()).slice(before);
  expect(after.filter((r) => !isIntegrate(r)).length).toBeGreaterThanOrEqual(2);
  expect(after.filter((r) => !isIntegrate(r)).length).toBeLessThanOrEqual(4);
  expect(after.filter(isIntegrate)).toHaveLength(1);

  // All twelve units are there, and cost shows per attempt, step and run.
  await app.expectStoredReplay();
  await expect(units.locator('.unit')).toHaveCount(12);
  await expect(units.locator('.unit.is-running, .unit.is-waiting')).toHaveCount(0);
  await expect(page.getByTestId('replay.step.integrate')).toContainText('$');
  await expect(page.getByTestId(`runs.item.${runId}`)).toContainText('$');
  await expect(page.getByTestId('replay').locator('.replay-title')).toContainText('$');
  await app.screenshot('seams-map-units-resumed');
});

test('a run going on in another tab is not called interrupted; once that tab is gone, it is', async ({ app, page, context }) => {
  await mock.reset();
  await app.open();
  await app.addMockProfile('Mock');
  await app.openChain('demo-map-integrate');
  await mock.enqueue([{ fault: 'hang' }]);
  await app.run();
  await expect(page.getByTestId('replay.units.per_ticket').locator('.unit.is-ok, .unit.is-error')).toHaveCount(11, { timeout: 30_000 });

  // A second tab starts up while the first is still running: the run holds its lease.
  const second = new AppPage(await context.newPage());
  await second.open();
  await second.openChain('demo-map-integrate');
  const item = second.page.locator('[data-testid^="runs.item."]').first();
  await expect(item).toContainText('running');
  await expect(item).not.toContainText('interrupted');

  // The first tab closes mid-run; the second, starting again, finds the run interrupted.
  await page.close();
  await second.page.reload();
  await expect(second.page.getByTestId('canvas')).toBeVisible();
  await second.openChain('demo-map-integrate');
  await expect(second.page.locator('[data-testid^="runs.item."]').first()).toContainText('interrupted');
});

test('a run in one tab shows in the other tab\'s run list when it ends, without a reload', async ({ app, context }) => {
  await app.open();
  await app.openChain('demo-summarise-then-answer');
  const second = new AppPage(await context.newPage());
  await second.open();
  await second.openChain('demo-summarise-then-answer');
  await expect(second.page.locator('[data-testid^="runs.item."]')).toHaveCount(0);
  await app.run();
  await app.expectRunStatus(/succeeded/i);
  await expect(second.page.locator('[data-testid^="runs.item."]').first()).toContainText('succeeded');
});

test('streamed text shows on the running step as it arrives', async ({ app, page }) => {
  await mock.reset();
  await app.open();
  await app.addMockProfile('Mock stream');
  await page.getByTestId('library.import').setInputFiles({ name: 'stream.chain.json', mimeType: 'application/json', buffer: await readFile(new URL('./fixtures/stream.chain.json', import.meta.url)) });
  await expect(app.node('write')).toBeVisible();
  // The stream fails part way (an error event after five text deltas), and the retry never
  // answers: what arrived stays on the node while the step is still running.
  await mock.enqueue([{ fault: 'stream_error', afterChunks: 6 }, { fault: 'hang' }]);
  await app.run();
  await expect(page.getByTestId('step.write.partial')).toContainText('This answer fails', { timeout: 20_000 });
  await expect(page.getByTestId('step.write.status')).toContainText('Running');
  await app.screenshot('seams-streaming');
  await page.getByTestId('run.cancel').click();
  await app.expectRunStatus(/cancelled/i);
  await expect(page.getByTestId('step.write.partial')).toHaveCount(0);
});

test('a retry is shown attempt by attempt (malformed, feedback, what came back) and per-step metrics count it', async ({ app, page }) => {
  await mock.reset();
  await app.open();
  await app.addMockProfile('Mock metrics');
  await app.openChain('demo-summarise-then-answer');
  // First run: the summary comes back malformed once, then valid.
  await mock.enqueue([{ content: { summary: 42 } }]);
  await app.run();
  await app.expectRunStatus(/succeeded/i);
  await app.expectStoredReplay();
  await app.stepToBoundary(/\(summarise\)\s*→.*\(answer\)/);
  await expect(page.getByTestId('replay.malformed')).toContainText('Malformed ×1, fixed on retry');
  const attempts = page.getByTestId('replay.attempts.summarise');
  await expect(attempts.getByTestId('replay.attempt.summarise.1')).toContainText('malformed: schema violation');
  await expect(attempts.getByTestId('replay.attempt.summarise.1')).toContainText('/summary: must be string');
  await expect(attempts.getByTestId('replay.attempt.summarise.1')).toContainText('Sent back as feedback for attempt 2');
  await expect(attempts.getByTestId('replay.attempt.summarise.1')).toContainText('{"summary":42}');
  await expect(attempts.getByTestId('replay.attempt.summarise.2')).toContainText('passed');

  // Second run: clean. The node badge and the table read across both runs.
  await app.run();
  await app.expectRunStatus(/succeeded/i);
  await expect(page.getByTestId('step.summarise.metrics')).toContainText('retry 50%');
  await expect(page.getByTestId('step.summarise.metrics')).toContainText('p95');
  await page.getByTestId('runs.metrics').click();
  const table = page.getByTestId('metrics');
  await expect(table).toBeVisible();
  await expect(page.getByTestId('metrics.step.summarise')).toContainText('33%');
  await expect(page.getByTestId('metrics.step.summarise')).toContainText('50%');
  await expect(page.getByTestId('metrics.step.answer')).toBeVisible();
  await app.screenshot('seams-metrics');
});
