import type { Chain, StepDef } from '../../src/chain/index.ts';

/**
 * A generated N-step chain for the canvas benchmark (`/?bench&fixture=chain&n=1000`), shaped
 * like the harness in /work/shared/bench/canvas: model steps with 5 output-schema fields, a
 * chain of reads (step i reads step i−1) plus fan-out (every 5th step is also read by i+2 and
 * i+3), laid out in the same snake grid. Pure and deterministic; built in memory, never stored.
 */
const VERBS = ['Classify', 'Summarize', 'Extract', 'Rewrite', 'Route', 'Critique', 'Plan', 'Answer', 'Translate', 'Score'];
const FIELD_NAMES = ['query', 'context', 'answer', 'confidence', 'citations', 'label', 'reasoning', 'tokens', 'language', 'score'];
const FIELD_TYPES: readonly Record<string, unknown>[] = [
  { type: 'string' },
  { type: 'number' },
  { type: 'boolean' },
  { type: 'array', items: { type: 'string' }, maxItems: 8 },
  { type: 'object', properties: {}, additionalProperties: false },
];

export const BENCH_COL_W = 320;
export const BENCH_ROW_H = 280;
export const BENCH_MAX_STEPS = 20_000;

export const benchStepId = (i: number) => `s${i}`;

function outputSchema(i: number): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (let f = 0; f < 5; f++) {
    let name = FIELD_NAMES[(i + f * 3) % FIELD_NAMES.length] as string;
    while (name in properties) name = `${name}_${f}`;
    properties[name] = FIELD_TYPES[(i * 7 + f) % FIELD_TYPES.length];
  }
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

export function makeBenchChain(n: number): Chain {
  const count = Math.max(1, Math.min(BENCH_MAX_STEPS, Math.floor(n)));
  const cols = Math.max(5, Math.ceil(Math.sqrt(count * 1.6)));
  const readers = new Map<number, number[]>();
  for (let i = 0; i + 1 < count; i++) readers.set(i + 1, [i]);
  for (let i = 0; i < count; i += 5) {
    for (const d of [2, 3]) if (i + d < count) readers.get(i + d)?.push(i);
  }
  const steps: StepDef[] = [];
  for (let i = 0; i < count; i++) {
    const row = Math.floor(i / cols);
    const colInRow = i % cols;
    const col = row % 2 === 0 ? colInRow : cols - 1 - colInRow;
    const reads = readers.get(i) ?? [];
    const bindings = Object.fromEntries(reads.map((r) => [benchStepId(r), `steps.${benchStepId(r)}`]));
    const prompt = reads.length ? `${VERBS[i % VERBS.length]} using:\n${reads.map((r) => `{${benchStepId(r)}}`).join('\n')}` : `${VERBS[i % VERBS.length]} the request.`;
    steps.push({
      id: benchStepId(i),
      kind: 'model',
      name: `${VERBS[i % VERBS.length]} #${i}`,
      position: { x: col * BENCH_COL_W, y: row * BENCH_ROW_H },
      config: { bindings, system: '', prompt, outputSchema: outputSchema(i), retries: 1, onFail: 'abstain' },
    });
  }
  return { format: 'seamscope.chain', version: 1, id: `bench-${count}`, name: `Bench: ${count} steps`, inputs: [], steps, meta: { bench: true } };
}
