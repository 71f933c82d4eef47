import AxeBuilder from '@axe-core/playwright';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCli, type CliProcess } from '../src/testing/cli-process.ts';
import { freePort } from '../src/testing/free-port.ts';
import { createMockModelServer } from '../src/testing/mock-server.ts';
import { withInstrumentedOpenAI } from '../src/testing/instrumented-openai.ts';
import { expect, test, type AppPage } from './fixtures/app.ts';

/**
 * Your application's runs, live, as the README says: `seamscope collect` (the CLI, from source)
 * on a free 127.0.0.1 port; an application using the official `openai` client, instrumented by
 * @opentelemetry/instrumentation-openai and exported by OpenTelemetry's OTLP/HTTP exporters,
 * calls the project's mock model server; in the app a person connects the collector with the
 * address and token it printed, the run appears in the run list, and it replays with what was
 * sent and what came back. The client is openai 6.49 (`openai-v6`: the instrumentation supports
 * <7), patched through the instrumentation's own entry point as src/testing/otel-capture.ts does.
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

/** The person's application: one chat call through the instrumented client, its spans and log records sent to the collector. */
async function applicationCall(collector: string, question = 'How long do I have to appeal?'): Promise<void> {
  const mock = await createMockModelServer();
  try {
    await withInstrumentedOpenAI({ url: collector, encoding: 'json' }, async ({ openai, flush }) => {
      mock.enqueue({ content: 'Appeals must be filed within 180 calendar days.', usage: { inputTokens: 24, outputTokens: 9 } });
      const client = new openai.OpenAI({ baseURL: `${mock.url}/v1`, apiKey: 'e2e-app-key', maxRetries: 0 });
      await client.chat.completions.create({ model: 'mock-model', messages: [{ role: 'system', content: 'Answer from the policy only.' }, { role: 'user', content: question }] });
      // Log records first: held until their span comes, they cannot miss the trace on a loaded machine
      // (spans first, the trace is written 1 s after its root span ends, late records or not).
      await flush('logs');
    });
  } finally {
    await mock.close();
  }
}

/** Every control in the dialog and the strip is named (axe's naming rules). */
async function expectNamed(app: AppPage): Promise<void> {
  const results = await new AxeBuilder({ page: app.page }).withRules(['button-name', 'label', 'aria-dialog-name', 'aria-input-field-name']).analyze();
  expect(results.passes.map((p) => p.id)).toEqual(expect.arrayContaining(['button-name', 'label']));
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
  // Connecting was the consent for that origin, kept with the other egress answers.
  expect(JSON.parse((await page.evaluate(() => localStorage.getItem('seamscope.webhook-consent.v1'))) ?? '{}')).toMatchObject({ [address]: 'allowed' });

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
  // The run stays stored; the collector printed its verdict line and never the application's key.
  await expect(runs).toHaveCount(1);
  expect(cli?.out).toMatch(/trace [0-9a-f]{32}: 1 span, 3 log records → .*\.run\.json "chat mock-model" \(succeeded\)/);
  expect(cli?.out).not.toContain('e2e-app-key');
});
