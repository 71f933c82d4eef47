import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, mock, test, type AppPage } from './fixtures/app.ts';
import { xssPayloads, type Payload } from './fixtures/xss-payloads.ts';

/**
 * Battery B5 (#11): ≥ 150 script-injection payloads in every field a chain, a run and an
 * imported trace can carry, shown in every pane — canvas cards, inspector, problems, contract
 * cards, replay (timeline, source, intermediate, received, attempts), run list, diff, metrics,
 * export preview — with 0 executions. Every payload calls a canary, `__xss(id)`, if it ever
 * runs; CSP violation reports count too (under the app's CSP an injected handler is blocked
 * and reported rather than run: an injection all the same).
 */
const PAYLOADS = xssPayloads();
const chunk = (from: number, count: number) => PAYLOADS.slice(from, from + count);
const joined = (ps: readonly Payload[]) => ps.map((p) => p.text).join('\n');
// A prompt template reads `{name}` as a placeholder: payloads with braces go everywhere else.
const braceFree = PAYLOADS.filter((p) => !/[{}]/.test(p.text));
const outputSchema = (field: string, ps: readonly Payload[]) => ({
  type: 'object',
  description: joined(ps.slice(0, 3)),
  properties: { [field]: { type: 'string', description: joined(ps.slice(3, 6)) }, tag: { type: 'string', enum: ps.slice(6, 10).map((p) => p.text) } },
  required: [field],
  additionalProperties: false,
});

function hostileChain() {
  const step = (id: string, n: number, reads: Record<string, string>, prompt: string, field: string) => ({
    id, kind: 'model', name: PAYLOADS[n]?.text.slice(0, 200) ?? id, description: joined(chunk(n, 8)), position: { x: n * 10, y: 0 },
    config: { bindings: reads, prompt, outputSchema: outputSchema(field, chunk(n + 8, 10)), retries: 1, onFail: 'abort' },
  });
  return {
    format: 'seamscope.chain', version: 1, id: 'e2e-xss-battery', name: `XSS ${PAYLOADS[150]?.text}`.slice(0, 200), description: joined(chunk(100, 20)),
    inputs: [
      { name: 'document', description: joined(chunk(120, 10)), schema: { type: 'string', description: joined(chunk(130, 5)) }, trust: 'trusted', required: true, example: joined(PAYLOADS) },
      { name: 'question', description: joined(chunk(135, 5)), schema: { type: 'string' }, trust: 'untrusted', required: true, example: joined(chunk(140, 15)) },
    ],
    steps: [
      step('extract', 0, { document: 'inputs.document' }, `Extract. ${joined(braceFree.slice(0, 12))}\n{document}`, 'facts'),
      step('answer', 30, { facts: 'steps.extract.facts', question: 'inputs.question' }, `Answer. ${joined(braceFree.slice(12, 24))}\n{facts}\n{question}`, 'answer'),
      step('polish', 60, { answer: 'steps.answer.answer' }, `Polish. ${joined(braceFree.slice(24, 36))}\n{answer}`, 'final'),
      { id: 'out', kind: 'output', name: PAYLOADS[90]?.text.slice(0, 200) ?? 'out', position: { x: 900, y: 0 }, config: { bindings: { value: 'steps.polish.final' } } },
    ],
  };
}

/** Replies for one run: a malformed (hostile) first try, then hostile but valid outputs. */
function hostileReplies(offset: number) {
  const text = (n: number) => joined(PAYLOADS.slice((offset + n) % PAYLOADS.length, ((offset + n) % PAYLOADS.length) + 12));
  return [
    { content: { facts: 7, junk: text(0) } },
    { content: { facts: text(12) } },
    { content: { answer: text(24) } },
    { content: { final: text(36) } },
  ];
}

/** An OTLP trace (OpenLLMetry's attributes) with payloads in span names, prompts and completions. */
async function hostileTrace(): Promise<Buffer> {
  const base = JSON.parse(await readFile(new URL('./fixtures/traces/openllmetry-0.33.9-openai-chat.otlp.json', import.meta.url), 'utf8'));
  const scope = base.resourceSpans[0].scopeSpans[0];
  const template = scope.spans[0];
  scope.spans = Array.from({ length: 10 }, (_, i) => {
    const span = structuredClone(template);
    span.spanId = (i + 1).toString(16).padStart(16, '0');
    span.name = `chat ${PAYLOADS[(i * 15) % PAYLOADS.length]?.text}`;
    span.attributes = span.attributes.map((a: { key: string; value: unknown }) =>
      a.key === 'gen_ai.prompt.0.content' || a.key === 'gen_ai.completion.0.content' ? { ...a, value: { stringValue: joined(chunk(i * 15, 15)) } } : a,
    );
    return span;
  });
  return Buffer.from(JSON.stringify(base));
}

async function installCanary(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __xss: (id: number) => void; __xssHits: number[]; __csp: string[] };
    w.__xssHits = [];
    w.__csp = [];
    w.__xss = (id) => w.__xssHits.push(id);
    document.addEventListener('securitypolicyviolation', (e) => w.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`));
  });
}

async function expectInert(page: Page, dialogs: string[], where: string): Promise<void> {
  const { hits, csp } = await page.evaluate(() => {
    const w = window as unknown as { __xssHits: number[]; __csp: string[] };
    return { hits: [...w.__xssHits], csp: [...w.__csp] };
  });
  expect(hits, `no payload ran (${where})`).toEqual([]);
  expect(csp, `no CSP violation (${where})`).toEqual([]);
  expect(dialogs, `no dialog opened (${where})`).toEqual([]);
  // Nothing the payloads carry became an element.
  await expect(page.locator('img[src="x"], img[src="X"], iframe[srcdoc], object[data], embed[src], marquee, a[href^="javascript:" i], form button[formaction]')).toHaveCount(0);
}

async function stepThroughReplay(app: AppPage, page: Page, shot: string): Promise<number> {
  let seen = 1;
  const next = page.getByTestId('replay.next');
  while (await next.isEnabled()) {
    await next.click();
    seen++;
    if (seen > 20) break;
  }
  await app.screenshot(shot);
  return seen;
}

test('B5: 155 payloads in every field, shown in every pane, never run', async ({ app, page }) => {
  test.setTimeout(120_000);
  expect(PAYLOADS.length).toBeGreaterThanOrEqual(150);
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await installCanary(page);
  await mock.reset();
  await app.open();
  await app.addMockProfile('Mock XSS', { input: 1, output: 4 });

  // The chain: names, descriptions, prompts, schemas (descriptions and enum values), inputs.
  await page.getByTestId('library.import').setInputFiles({ name: 'xss.chain.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(hostileChain())) });
  await expect(app.node('extract')).toContainText(PAYLOADS[0]?.text.slice(0, 20) ?? '');
  await expectInert(page, dialogs, 'canvas and chain panel');
  await app.showWholeChain();
  for (const id of ['extract', 'answer', 'polish', 'out']) {
    await app.node(id).click();
    await expect(page.getByTestId('inspector')).toBeVisible();
  }
  // Edge labels (and the contract card they open) are in the full view, not the overview.
  await app.fit();
  await app.edge('data:extract->answer:facts').locator('.react-flow__edge-textwrapper').hover();
  await expect(page.getByTestId('contract.card.hover')).toBeVisible();
  await expectInert(page, dialogs, 'inspector, problems and contract cards');

  // Two runs whose outputs and retries carry payloads; the replay, every boundary.
  for (const offset of [0, 70]) {
    await mock.enqueue(hostileReplies(offset));
    await app.run();
    await app.expectRunStatus(/succeeded/i);
  }
  await app.openLatestRun();
  const stops = await stepThroughReplay(app, page, 'xss-battery-replay');
  expect(stops).toBeGreaterThanOrEqual(3);
  await expect(page.getByTestId('replay')).toContainText('__xss(');
  await expectInert(page, dialogs, 'replay');

  // The diff of the two runs, the metrics, the export preview in both languages.
  await page.getByTestId('replay.compareWith').selectOption({ index: 1 });
  await expect(page.getByTestId('diff')).toContainText('__xss(');
  await expectInert(page, dialogs, 'diff');
  await page.getByTestId('runs.metrics').click();
  await expect(page.getByTestId('metrics.dialog')).toBeVisible();
  await expectInert(page, dialogs, 'metrics');
  await page.keyboard.press('Escape');
  for (const lang of ['ts', 'py'] as const) {
    await page.getByTestId('export.open').click();
    await page.getByTestId(`export.lang.${lang}`).click();
    await expect(page.getByTestId('export.preview')).toContainText('__xss(');
    await expectInert(page, dialogs, `export ${lang}`);
    await page.keyboard.press('Escape');
  }

  // A vendor's trace whose span names, prompts and completions are payloads.
  await page.getByTestId('trace.import').setInputFiles({ name: 'xss.otlp.json', mimeType: 'application/json', buffer: await hostileTrace() });
  await expect(page.getByTestId('replay')).toBeVisible();
  await stepThroughReplay(app, page, 'xss-battery-trace-last');
  await expect(page.getByTestId('replay')).toContainText('__xss(');
  await expectInert(page, dialogs, 'imported trace');
  await app.screenshot('xss-battery-trace');
});
