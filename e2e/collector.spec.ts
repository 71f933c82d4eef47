import AxeBuilder from '@axe-core/playwright';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCli, type CliProcess } from '../src/testing/cli-process.ts';
import { freePort } from '../src/testing/free-port.ts';
import { expect, test, type AppPage } from './fixtures/app.ts';
import { runOpenAIApp } from './fixtures/openai-app.ts';

/**
 * Your application's runs, live, as the README says, line by line: `seamscope collect` (the CLI,
 * from source) on a free 127.0.0.1 port; `OTEL_EXPORTER_OTLP_ENDPOINT=… node --import
 * examples/collect/otel.mjs app.mjs`, an application using the official `openai` client
 * (openai 6.49: instrumentation-openai supports < 7) calling the project's mock model server,
 * instrumented and exported by that very file; in the app a person connects the collector with
 * the address and token it printed, the run appears in the run list, and it replays with what
 * was sent and what came back. Traces the collector held before the first connect are imported
 * only when the person says so.
 */
const APP_URL = `http://127.0.0.1:${process.env.E2E_APP_PORT ?? 4173}`;

let cli: CliProcess | null = null;
let dir = '';
test.afterEach(async () => {
  if (cli) {
    cli.child.kill('SIGINT');
    await cli.exit;
    cli = null;
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Starts the collector; resolves to the address and token it printed for the app. */
async function startCollect(): Promise<{ address: string; token: string }> {
  dir = mkdtempSync(join(tmpdir(), 'seamscope-e2e-collect-'));
  const port = await freePort();
  const started = startCli(['collect', '--port', String(port), '--dir', dir, '--app-origin', APP_URL]);
  cli = started;
  await expect.poll(() => started.out, { timeout: 30_000 }).toMatch(/and token [A-Za-z0-9_-]+/);
  const [, address, token] = /Connect collector with address (\S+) and token ([A-Za-z0-9_-]+)/.exec(started.out) ?? [];
  if (!address || !token) throw new Error(`the collector printed no address and token:\n${started.out}`);
  return { address, token };
}

/** The person's application, run once: one chat call, its spans and log records sent to the collector by examples/collect/otel.mjs. */
async function applicationCall(collector: string, question = 'How long do I have to appeal?', app?: 'your-app.mjs' | 'your-app.js'): Promise<void> {
  expect(await runOpenAIApp(collector, question, app)).toContain('Appeals must be filed within 180 calendar days.');
}

/** Waits until the collector has printed `count` finished traces. */
async function collected(count: number): Promise<void> {
  await expect.poll(() => (cli?.out.match(/^trace [0-9a-f]{32}: /gm) ?? []).length, { timeout: 30_000 }).toBe(count);
}

/** Opens Connect collector and types the address and token, as a person does; Enter connects. */
async function connect(app: AppPage, address: string, token: string): Promise<void> {
  await clickCentre(app, 'collector.open');
  await expect(app.page.getByTestId('collector.dialog')).toBeVisible();
  await app.typeInto(app.page.getByTestId('collector.address'), address);
  await app.typeInto(app.page.getByTestId('collector.token'), token);
  await app.page.keyboard.press('Enter');
}

const stored = (page: AppPage['page'], key: string) => page.evaluate((k) => JSON.parse(localStorage.getItem(k) ?? '{}') as Record<string, unknown>, key);

/** Every control in the dialog and the strip is named (axe's naming rules; `checked`: the rules that found something to check). */
async function expectNamed(app: AppPage, checked = ['button-name', 'label']): Promise<void> {
  const results = await new AxeBuilder({ page: app.page }).withRules(['button-name', 'label', 'aria-dialog-name', 'aria-input-field-name']).analyze();
  expect(results.passes.map((p) => p.id)).toEqual(expect.arrayContaining(checked));
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`)).toEqual([]);
}

async function clickCentre(app: AppPage, testId: string): Promise<void> {
  const box = await app.page.getByTestId(testId).boundingBox();
  if (!box) throw new Error(`${testId} is not on screen`);
  await app.page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

test('connect the collector, and a trace the application sends appears in the run list and replays', async ({ app, page }) => {
  const { address, token } = await startCollect();
  await app.open();
  const runs = page.locator('[data-testid^="runs.item."]');

  // The Connect collector dialog, as a person fills it: the address typed over the default, then a token.
  await clickCentre(app, 'collector.open');
  await expect(page.getByTestId('collector.dialog')).toBeVisible();
  await app.typeInto(page.getByTestId('collector.address'), address);
  await page.getByTestId('collector.token').click();
  await page.keyboard.type('not-the-token-it-printed');
  await clickCentre(app, 'collector.submit');
  await expect(page.getByTestId('collector.problem')).toContainText('the collector refused the token');
  await app.typeInto(page.getByTestId('collector.token'), token);
  await app.screenshot('collector-connect');
  await expectNamed(app);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('collector.dialog')).toBeHidden();
  const state = page.getByTestId('collector.state');
  await expect(state).toContainText('Collector connected · 0 traces');
  await expect(state).toContainText(address.replace('http://', ''));

  await applicationCall(address);
  // The root span ended; after the collector's grace for late log records the trace is written and read.
  await expect(state).toContainText('Collector connected · 1 trace', { timeout: 30_000 });
  await expect(runs).toHaveCount(1);
  await expect(page.locator('.library-row.is-open')).toContainText('chat mock-model');
  await app.screenshot('collector-connected');
  await expectNamed(app);

  const runId = (await runs.first().getAttribute('data-testid'))?.slice('runs.item.'.length) ?? '';
  await clickCentre(app, `runs.item.${runId}`);
  await app.expectStoredReplay();
  // What the application sent, and what came back, in the boundary view.
  const replay = page.getByTestId('replay');
  await expect(replay.getByText('How long do I have to appeal?')).toBeVisible();
  await expect(replay.getByText('Answer from the policy only.')).toBeVisible();
  await expect(page.getByTestId('replay.output')).toContainText('Appeals must be filed within 180 calendar days.');
  await app.screenshot('collector-replay');
  // Connecting was the consent for that origin to be read as a collector, and nothing more:
  // a chain's webhook posting there would still be asked about.
  expect(await stored(page, 'seamscope.collector-consent.v1')).toEqual({ [address]: 'allowed' });
  expect(await stored(page, 'seamscope.webhook-consent.v1')).toEqual({});

  // A trace that arrives during a replay leaves the person where they are, and offers it.
  await applicationCall(address, 'And who decides the appeal?');
  await expect(state).toContainText('Collector connected · 2 traces', { timeout: 30_000 });
  const offer = page.locator('.toast', { hasText: 'Collected "chat mock-model (2)"' });
  await expect(offer).toBeVisible();
  await expect(replay.getByText('How long do I have to appeal?')).toBeVisible();
  await offer.getByRole('button', { name: 'Open' }).click();
  await expect(replay.getByText('And who decides the appeal?')).toBeVisible();
  await expect(page.locator('.library-row.is-open')).toContainText('chat mock-model (2)');
  await page.setViewportSize({ width: 1280, height: 720 });
  await app.screenshot('collector-replay-1280');
  await clickCentre(app, 'replay.close');
  await page.getByTestId('collector.disconnect').scrollIntoViewIfNeeded();
  await app.screenshot('collector-connected-1280');

  await clickCentre(app, 'collector.disconnect');
  await expect(state).toBeHidden();
  await expect(page.getByTestId('collector.open')).toBeVisible();
  // Disconnect withdrew the consent on this device.
  expect(await stored(page, 'seamscope.collector-consent.v1')).toEqual({});
  // The run stays stored; the collector printed its verdict line and never the application's key.
  await expect(runs).toHaveCount(1);
  expect(cli?.out).toMatch(/trace [0-9a-f]{32}: 1 span, 3 log records → .*\.run\.json "chat mock-model" \(succeeded\)/);
  expect(cli?.out).not.toContain('e2e-app-key');
});

test('traces the collector already held are imported only when the person says so, and the choice is kept for that collector', async ({ app, page }) => {
  const { address, token } = await startCollect();
  // The application ran before anyone connected: two traces wait in the collector's folder.
  // These calls come from the CommonJS form of the app (your-app.js); the first test's from the ES module.
  await applicationCall(address, 'Sent before connecting, one?', 'your-app.js');
  await applicationCall(address, 'Sent before connecting, two?', 'your-app.js');
  await collected(2);
  await app.open();
  const collectedChains = page.locator('.library-row', { hasText: 'chat mock-model' });
  const state = page.getByTestId('collector.state');

  await connect(app, address, token);
  const question = page.getByTestId('collector.backlog');
  await expect(question).toContainText('2 traces already collected');
  await expect(question).toContainText(address.replace('http://', ''));
  await app.screenshot('collector-backlog-question');
  // The question has buttons only, no fields.
  await expectNamed(app, ['button-name']);
  // Escape is no answer: disconnected, nothing imported.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('collector.dialog')).toBeHidden();
  await expect(state).toBeHidden();
  await expect(collectedChains).toHaveCount(0);

  // Asked again (nothing was chosen); the keyboard reaches Only new ones from the focused Import all 2.
  await connect(app, address, token);
  await expect(question).toContainText('2 traces already collected');
  await expect(page.getByTestId('collector.backlog.all')).toBeFocused();
  await expect(page.getByTestId('collector.backlog.all')).toHaveText('Import all 2');
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByTestId('collector.backlog.new')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('collector.dialog')).toBeHidden();
  await expect(state).toContainText('Collector connected · 0 traces');
  await applicationCall(address, 'Sent after connecting?', 'your-app.js');
  await expect(state).toContainText('Collector connected · 1 trace', { timeout: 30_000 });
  await expect(collectedChains).toHaveCount(1);

  // Disconnected, the application sends again; connecting again to the same collector asks
  // nothing, brings what arrived meanwhile, and still not the two from before.
  await clickCentre(app, 'collector.disconnect');
  await expect(state).toBeHidden();
  await applicationCall(address, 'Sent while disconnected?', 'your-app.js');
  await collected(4);
  await connect(app, address, token);
  await expect(page.getByTestId('collector.dialog')).toBeHidden();
  await expect(state).toContainText('Collector connected · 1 trace', { timeout: 30_000 });
  await expect(collectedChains).toHaveCount(2);
  await expect(page.getByText('already collected')).toHaveCount(0);
  await app.screenshot('collector-only-new');
});

test('importing what the collector held: one click, and each trace arrives once', async ({ app, page }) => {
  const { address, token } = await startCollect();
  await applicationCall(address, 'Sent before connecting?');
  await collected(1);
  await page.setViewportSize({ width: 1280, height: 720 });
  await app.open();
  await connect(app, address, token);
  await expect(page.getByTestId('collector.backlog')).toContainText('1 trace already collected');
  await app.screenshot('collector-backlog-question-1280');
  await clickCentre(app, 'collector.backlog.all');
  const state = page.getByTestId('collector.state');
  await expect(state).toContainText('Collector connected · 1 trace', { timeout: 30_000 });
  await expect(page.locator('.library-row', { hasText: 'chat mock-model' })).toHaveCount(1);
  // Kept for this collector: connecting again asks nothing, reads its folder from the start, and
  // stores only what it did not hold (the next trace is read after the one stored before).
  await clickCentre(app, 'collector.disconnect');
  await connect(app, address, token);
  await expect(page.getByTestId('collector.dialog')).toBeHidden();
  await expect(state).toContainText('Collector connected · 0 traces');
  await applicationCall(address, 'Sent after connecting again?');
  await expect(state).toContainText('Collector connected · 1 trace', { timeout: 30_000 });
  await expect(page.locator('.library-row', { hasText: 'chat mock-model' })).toHaveCount(2);
});
