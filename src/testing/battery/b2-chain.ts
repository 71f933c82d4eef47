import type { Chain } from '../../chain/schema.ts';
import { runChain } from '../../engine/run.ts';
import type { RunMeta, TraceEvent } from '../../trace/events.ts';
import type { RunRepository } from '../../trace/repository.ts';
import { countTokens, mockModel, mockProvider, type Protocol } from './endpoints.ts';

/**
 * The chain B2 interrupts: two sequential steps around a five-unit map, then a last step —
 * eight model calls, each prompt tagged so the mock's request log says which step (or unit)
 * was called. Shared by the in-process cases and the child process that is killed.
 */
const note = { type: 'object', properties: { note: { type: 'string' } }, required: ['note'], additionalProperties: false };

export const B2_UNITS = ['u1', 'u2', 'u3', 'u4', 'u5'];
export const B2_INPUTS = { topic: 'appeal deadlines', items: B2_UNITS.map((id, i) => ({ id, text: `Clause ${i + 1}: appeals within ${30 * (i + 1)} days.` })) };

export function b2Chain(stream: boolean): Chain {
  const model = (id: string, bindings: Record<string, string>, prompt: string, x: number) => ({ id, kind: 'model', name: id, position: { x, y: 0 }, config: { bindings, prompt, outputSchema: note, stream, retries: 0 } });
  return {
    format: 'seamscope.chain', version: 1, id: 'battery-b2', name: 'B2 resume',
    inputs: [
      { name: 'topic', schema: { type: 'string' }, trust: 'trusted', required: true },
      { name: 'items', schema: { type: 'array' }, trust: 'trusted', required: true },
    ],
    steps: [
      model('s1', { topic: 'inputs.topic' }, 'STEP s1: note the topic {topic}.', 0),
      {
        id: 'units', kind: 'map', name: 'units', position: { x: 280, y: 0 },
        config: { bindings: { items: 'inputs.items', context: 'steps.s1.note' }, itemName: 'item', unitIdField: 'id', concurrency: 2, prompt: 'UNIT {item.id}: note {item.text} (context: {context}).', outputSchema: note, stream, retries: 0 },
      },
      model('s2', { results: 'steps.units.results' }, 'STEP s2: join the notes {results}.', 560),
      model('s3', { joined: 'steps.s2.note' }, 'STEP s3: conclude from {joined}.', 840),
      { id: 'final', kind: 'output', name: 'final', position: { x: 1120, y: 0 }, config: { bindings: { value: 'steps.s3.note' } } },
    ],
  } as Chain;
}

/** Which step (or `units/<id>`) a request at the mock was for, from its tagged prompt. */
export function callTarget(body: unknown): string {
  const text = JSON.stringify((body as { messages?: unknown })?.messages ?? body);
  // The tag a prompt starts with comes first; later ones are earlier outputs quoted in it.
  const tag = /STEP (s\d):|UNIT (u\d+):/.exec(text);
  if (!tag) return 'unknown';
  return tag[1] ?? `units/${tag[2]}`;
}

export interface B2RunOptions {
  protocol: Protocol;
  url: string;
  repo: RunRepository;
  stream: boolean;
  runId?: string;
  signal?: AbortSignal;
  resume?: { events: readonly TraceEvent[] };
  onEvent?: (event: TraceEvent) => void;
  onDelta?: () => void;
}

export function runB2Chain(o: B2RunOptions): Promise<RunMeta> {
  return runChain({
    chain: b2Chain(o.stream), inputs: B2_INPUTS, provider: mockProvider(o.protocol, o.url), model: mockModel, repo: o.repo, countTokens,
    runId: o.runId, signal: o.signal, resume: o.resume, onEvent: o.onEvent, onDelta: o.onDelta,
    transport: { baseDelayMs: 5, maxDelayMs: 20, maxAttempts: 2, timeoutMs: 10_000 },
  });
}
