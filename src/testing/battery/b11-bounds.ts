import type { Chain, StepDef } from '../../chain/schema.ts';
import { parseChain } from '../../chain/parse.ts';
import { runChain } from '../../engine/run.ts';
import { createSchemaValidator } from '../../engine/validate.ts';
import { parseStrictJson } from '../../files/strict-json.ts';
import { inspectRun } from '../../inspect/boundary.ts';
import { extractFacts } from '../../inspect/facts.ts';
import { createDemoProvider } from '../../providers/demo-model.ts';
import { demoProfile, runModelSettings } from '../../providers/profiles.ts';
import { loadTokenCounter } from '../../providers/tokenizer.ts';
import { createMemoryRunRepository } from '../../trace/repository.ts';
import { CaseClock, withTimeout, type BatterySuite, type SuiteOptions, type SuiteResult, type TargetCheck } from './types.ts';
import { stepRegistry } from '../../steps/index.ts';

/**
 * B11: the ReDoS, size and scale cases of #11, each with a bound on time (and memory where it
 * can run away). Super-linear patterns on long inputs must finish; declared sizes that would
 * exhaust memory must be refused at validate; deep and huge JSON must be refused or read; and
 * run, inspect, fact extraction and token counting must grow linearly (large ÷ small within the
 * issue's ratios or absolute limits). Nothing here is a timed assertion in a test: the figures
 * are the suite's report, and the limits its target.
 */
export function sequentialChain(n: number): Chain {
  const steps: StepDef[] = [];
  for (let i = 0; i < n; i++) {
    steps.push({
      id: `s${i}`, kind: 'model', name: `Step ${i}`, position: { x: i * 280, y: 0 },
      config: {
        bindings: { text: i === 0 ? 'inputs.document' : `steps.s${i - 1}.summary` },
        prompt: 'Summarise {text} in one sentence.',
        outputSchema: { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'], additionalProperties: false },
      },
    });
  }
  steps.push({ id: 'final', kind: 'output', name: 'Final', position: { x: n * 280, y: 0 }, config: { bindings: { value: `steps.s${n - 1}.summary` } } });
  return { format: 'seamscope.chain', version: 1, id: `scale-${n}`, name: `Scale ${n}`, inputs: [{ name: 'document', schema: { type: 'string' }, trust: 'trusted', required: true }], steps };
}

const summarySchema = { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'], additionalProperties: false };

/** n steps: one model step, then gates in a line, each checking what the one before passed on, then the output. */
export function gateLineChain(n: number): Chain {
  const steps: StepDef[] = [{ id: 's0', kind: 'model', name: 'Summarise', position: { x: 0, y: 0 }, config: { bindings: { text: 'inputs.document' }, prompt: 'Summarise {text} in one sentence.', outputSchema: summarySchema } }];
  const gates = Math.max(1, n - 2);
  for (let i = 1; i <= gates; i++) {
    steps.push({ id: `g${i}`, kind: 'gate', name: `Gate ${i}`, position: { x: i * 280, y: 0 }, config: { bindings: { value: i === 1 ? 'steps.s0' : `steps.g${i - 1}` }, check: { type: 'jsonSchema', schema: { type: 'object', required: ['summary'] } } } });
  }
  steps.push({ id: 'final', kind: 'output', name: 'Final', position: { x: (gates + 1) * 280, y: 0 }, config: { bindings: { value: `steps.g${gates}.summary` } } });
  return { format: 'seamscope.chain', version: 1, id: `gate-line-${n}`, name: `Gate line ${n}`, inputs: [{ name: 'document', schema: { type: 'string' }, trust: 'trusted', required: true }], steps };
}

/** n steps: one model step read by gates side by side (every one ready at once), the output after the last. */
export function fanOutChain(n: number): Chain {
  const steps: StepDef[] = [{ id: 's0', kind: 'model', name: 'Summarise', position: { x: 0, y: 0 }, config: { bindings: { text: 'inputs.document' }, prompt: 'Summarise {text} in one sentence.', outputSchema: summarySchema } }];
  const gates = Math.max(1, n - 2);
  for (let i = 1; i <= gates; i++) {
    steps.push({ id: `g${i}`, kind: 'gate', name: `Gate ${i}`, position: { x: 280, y: i * 120 }, config: { bindings: { value: 'steps.s0' }, check: { type: 'jsonSchema', schema: { type: 'object', required: ['summary'] } } } });
  }
  steps.push({ id: 'final', kind: 'output', name: 'Final', position: { x: 560, y: 0 }, config: { bindings: { value: `steps.g${gates}.summary` } } });
  return { format: 'seamscope.chain', version: 1, id: `fan-out-${n}`, name: `Fan-out ${n}`, inputs: [{ name: 'document', schema: { type: 'string' }, trust: 'trusted', required: true }], steps };
}

/** A map over n items (one model call each), then the output. Its input is `mapItems(n)`. */
export function mapChain(): Chain {
  return {
    format: 'seamscope.chain', version: 1, id: 'map-scale', name: 'Map scale',
    inputs: [{ name: 'items', schema: { type: 'array', items: { type: 'string' } }, trust: 'trusted', required: true }],
    steps: [
      { id: 'each', kind: 'map', name: 'Each', position: { x: 0, y: 0 }, config: { bindings: { items: 'inputs.items' }, itemName: 'item', prompt: 'Summarise {item} in one sentence.', outputSchema: summarySchema, concurrency: 8 } },
      { id: 'final', kind: 'output', name: 'Final', position: { x: 280, y: 0 }, config: { bindings: { value: 'steps.each.ok_count' } } },
    ],
  };
}
export const mapItems = (n: number) => Array.from({ length: n }, (_, i) => `Item ${i}: a member may appeal within ${i % 365} calendar days.`);

const DOCUMENT = 'A member may appeal within 180 calendar days. The plan pays up to $1,500 a year. An urgent appeal is decided within 48 hours.';

/** Text with no newline at all (a PDF pasted as one line, or a hostile file). */
export function oneLine(bytes: number): string {
  const unit = 'Clause 4.1 allows 180 calendar days; the fee is $25 (2) and 50% applies to 3 claims. ';
  return unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
}

async function timed<T>(work: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

/** A sequential run on the demo model and its inspection, timed. */
export async function runAndInspect(n: number): Promise<{ runMs: number; inspectMs: number; boundaries: number }> {
  const countTokens = await loadTokenCounter();
  const repo = createMemoryRunRepository();
  const run = await timed(() => runChain({ chain: sequentialChain(n), inputs: { document: DOCUMENT }, provider: createDemoProvider(), model: runModelSettings(demoProfile), repo, countTokens }));
  if (run.value.status !== 'succeeded') throw new Error(`the ${n}-step run ended ${run.value.status}`);
  const events = await repo.getEvents(run.value.id);
  const inspect = await timed(() => inspectRun(run.value, events));
  return { runMs: run.ms, inspectMs: inspect.ms, boundaries: inspect.value.boundaries.length };
}

const REDOS: { pattern: string; text: (n: number) => string }[] = [
  { pattern: '^(a+)+$', text: (n) => `${'a'.repeat(n)}!` },
  { pattern: '^(a|aa)+$', text: (n) => `${'a'.repeat(n)}!` },
  { pattern: '^(a|a?)+$', text: (n) => `${'a'.repeat(n)}!` },
  { pattern: '^(\\w+\\s?)*$', text: (n) => `${'word '.repeat(n / 5)}!` },
  { pattern: '(x+x+)+y', text: (n) => 'x'.repeat(n) },
  { pattern: '^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$', text: (n) => `${'a'.repeat(n)}@` },
];

export const b11Bounds: BatterySuite = {
  id: 'B11',
  title: 'ReDoS, sizes and scale',
  target: 'the ReDoS, size and scale cases: bounded time and memory (inspect and run at 5,000 steps within 6× of 1,000, `seamscope run` of a gate line linear; facts on 5 MB without newlines < 2 s; 200,000 characters of one letter counted < 1 s)',
  async run(opts: SuiteOptions = {}): Promise<SuiteResult> {
    const clock = new CaseClock();
    const checks: TargetCheck[] = [];
    const failures: string[] = [];
    let cases = 0;
    let definedEnd = 0;
    const note = (name: string, ok: boolean, detail: string, timed = true) => {
      checks.push({ name, ok, detail, timed });
      if (!ok) failures.push(`${name}: ${detail}`);
    };

    // ReDoS: every classic super-linear pattern, on a long input, through the engine's validator.
    const validator = createSchemaValidator();
    const length = opts.quick ? 20_000 : 200_000;
    let worstRedos = 0;
    for (const r of REDOS) {
      cases++;
      const { ms, value } = await clock.time(() => timed(() => validator.validate({ type: 'string', pattern: r.pattern }, r.text(length))));
      definedEnd++;
      worstRedos = Math.max(worstRedos, ms);
      if (value.length === 0) failures.push(`${r.pattern} matched text it must not match`);
    }
    note(`${REDOS.length} ReDoS patterns on ${length.toLocaleString('en')} characters < 1 s each`, worstRedos < 1000, `worst ${Math.round(worstRedos)} ms`);
    note('ReDoS patterns decided correctly', !failures.some((f) => f.includes('matched text')), `${REDOS.length} refused the hostile text`, false);

    // Declared sizes that would exhaust memory at run time are refused at validate.
    const huge = [{ minItems: 100_000_000 }, { minLength: 1e9 }, { maxItems: 1e12 }, { enum: Array.from({ length: 200_000 }, (_, i) => i) }];
    let refused = 0;
    let worstRefusal = 0;
    for (const extra of huge) {
      cases++;
      const chain = sequentialChain(1);
      chain.inputs = [{ name: 'document', schema: { type: 'array', ...extra }, trust: 'trusted', required: true }];
      const { ms, value } = await clock.time(() => timed(() => parseChain(chain, stepRegistry)));
      definedEnd++;
      worstRefusal = Math.max(worstRefusal, ms);
      if (!value.ok) refused++;
    }
    note('declared sizes refused at validate', refused === huge.length, `${refused}/${huge.length} refused, worst ${Math.round(worstRefusal)} ms`, false);

    // Deep and wide JSON: refused past the depth limit, read when merely big, in bounded time.
    cases += 2;
    const deep = await clock.time(() => timed(() => parseStrictJson(`${'['.repeat(200_000)}${']'.repeat(200_000)}`)));
    const wide = await clock.time(() => timed(() => parseStrictJson(JSON.stringify({ items: Array.from({ length: opts.quick ? 20_000 : 200_000 }, (_, i) => ({ id: i, text: `item ${i}` })) }))));
    definedEnd += 2;
    note('200,000-deep JSON refused, 200,000-item JSON read', !deep.value.ok && wide.value.ok, 'refused / read', false);
    note('deep JSON < 2 s, wide JSON < 5 s', deep.ms < 2000 && wide.ms < 5000, `deep ${Math.round(deep.ms)} ms, wide ${Math.round(wide.ms)} ms`);

    // Scale: linear growth.
    const [small, large] = opts.quick ? [200, 1000] : [1000, 5000];
    cases += 2;
    // Best of two at each size: one run's figure on a shared machine is mostly its neighbours'
    // (and the collector's, after the suites before this one), the better of two is the work's.
    const best = async (n: number, limitMs: number) => {
      const first = await clock.time(() => withTimeout(runAndInspect(n), limitMs, `${n} steps`));
      const second = await clock.time(() => withTimeout(runAndInspect(n), limitMs, `${n} steps`));
      return { runMs: Math.min(first.runMs, second.runMs), inspectMs: Math.min(first.inspectMs, second.inspectMs), boundaries: Math.min(first.boundaries, second.boundaries) };
    };
    const a = await best(small, 120_000);
    const b = await best(large, 600_000);
    definedEnd += 2;
    const runRatio = b.runMs / a.runMs;
    const inspectRatio = b.inspectMs / a.inspectMs;
    note(`run ${large} ÷ ${small} steps ≤ 6×`, runRatio <= 6, `${runRatio.toFixed(2)}× (${Math.round(a.runMs)} → ${Math.round(b.runMs)} ms)`);
    note('every boundary inspected', b.boundaries >= large, `${b.boundaries} boundaries`, false);
    note(`inspect ${large} ÷ ${small} steps ≤ 6×`, inspectRatio <= 6, `${inspectRatio.toFixed(2)}× (${Math.round(a.inspectMs)} → ${Math.round(b.inspectMs)} ms)`);

    // The gate line through `seamscope run` (the CLI's per-event work included): the shape and
    // the path on which a fold of the whole trace per event went unseen by the engine-only case.
    cases += 2;
    const { runShapeThroughCli, SCALE_SHAPES } = await import('./scale-shapes.ts');
    const gateLine = SCALE_SHAPES.find((shape) => shape.name === 'gate line');
    if (gateLine) {
      await runShapeThroughCli(gateLine, 100);
      const cli = async (n: number) => {
        const runs = [await clock.time(() => runShapeThroughCli(gateLine, n)), await clock.time(() => runShapeThroughCli(gateLine, n))];
        return { ms: Math.min(...runs.map((r) => r.ms)), ok: runs.every((r) => r.status === 0) };
      };
      const c = await cli(small);
      const d = await cli(large);
      definedEnd += 2;
      const gateRatio = d.ms / c.ms;
      note(`seamscope run of a gate line ends succeeded at ${small} and ${large} steps`, c.ok && d.ok, c.ok && d.ok ? 'exit 0' : 'a run failed', false);
      // In process, linear work grows with the size itself: within a quarter of the size ratio.
      const linear = (large / small) * 1.25;
      note(`seamscope run, gate line ${large} ÷ ${small} steps ≤ ${linear}× (linear)`, gateRatio <= linear, `${gateRatio.toFixed(2)}× (${Math.round(c.ms)} → ${Math.round(d.ms)} ms)`);
    }

    cases += 2;
    const bytes = opts.quick ? 1_000_000 : 5_000_000;
    const facts = await clock.time(() => timed(() => extractFacts(oneLine(bytes))));
    const countTokens = await loadTokenCounter();
    const tokens = await clock.time(() => timed(() => countTokens('a'.repeat(200_000))));
    definedEnd += 2;
    note(`facts on ${bytes / 1e6} MB without newlines < 2 s`, facts.ms < 2000, `${Math.round(facts.ms)} ms, ${facts.value.length} facts`);
    note('200,000 characters of one letter counted < 1 s', tokens.ms < 1000, `${Math.round(tokens.ms)} ms, ${tokens.value} tokens`);
    note('heap after every case < 1 GB', clock.worstHeapMb < 1024, `${Math.round(clock.worstHeapMb)} MB`);

    return { cases, definedEnd, dataLost: 0, networkRequests: null, codeExecuted: null, worstMs: clock.worstMs, worstHeapMb: clock.worstHeapMb, checks, failures };
  },
};
