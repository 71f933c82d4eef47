import { readdirSync, readFileSync } from 'node:fs';
import { parseChain } from '../../chain/parse.ts';
import type { Chain } from '../../chain/schema.ts';
import { runChain } from '../../engine/run.ts';
import { createDemoProvider } from '../../providers/demo-model.ts';
import { demoProfile, runModelSettings } from '../../providers/profiles.ts';
import type { RunMeta, TraceEvent } from '../../trace/events.ts';
import { importOtlpTrace } from '../../trace/otlp/index.ts';
import { createMemoryRunRepository } from '../../trace/repository.ts';
import { corpusPath, readCorpus } from '../corpus.ts';
import { CANARY_PAYLOADS } from './canary.ts';
import { stepRegistry } from '../../steps/index.ts';

/**
 * Stored runs for the replay battery: every demo chain in public/demo run on the offline demo
 * model (once as shipped, once with script payloads in its text inputs), and the recorded
 * third-party traces of the corpus imported as runs.
 */
export interface StoredRun {
  label: string;
  meta: RunMeta;
  events: TraceEvent[];
}

const demoDir = new URL('../../../public/demo/', import.meta.url);
const readDemo = (file: string) => readFileSync(new URL(file, demoDir), 'utf8');

export function demoChains(): Chain[] {
  const index = JSON.parse(readDemo('index.json')) as { file: string }[];
  return index.map(({ file }) => {
    const parsed = parseChain(readDemo(file), stepRegistry);
    if (!parsed.ok) throw new Error(`${file}: ${parsed.problems.map((p) => p.message).join('; ')}`);
    return parsed.chain;
  });
}

/** What the Run dialog and the CLI use when nobody types: meta.inputFiles, then examples. */
function defaultInputs(chain: Chain): Record<string, unknown> {
  const files = (chain.meta?.inputFiles ?? {}) as Record<string, string>;
  return Object.fromEntries(chain.inputs.map((i) => [i.name, files[i.name] ? readDemo(files[i.name] as string) : i.example]));
}

function withPayloads(inputs: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, typeof v === 'string' ? `${v}\n${CANARY_PAYLOADS.join('\n')}` : v]));
}

export async function demoRuns(opts: { payloads: boolean }): Promise<StoredRun[]> {
  const repo = createMemoryRunRepository();
  const out: StoredRun[] = [];
  for (const chain of demoChains()) {
    const variants = opts.payloads ? [false, true] : [false];
    for (const payload of variants) {
      const inputs = payload ? withPayloads(defaultInputs(chain)) : defaultInputs(chain);
      const meta = await runChain({ chain, inputs, provider: createDemoProvider(), model: runModelSettings(demoProfile), repo, countTokens: (t) => Math.ceil(t.length / 4) });
      out.push({ label: `${chain.id}${payload ? ' (script payloads)' : ''}`, meta, events: await repo.getEvents(meta.id) });
    }
  }
  return out;
}

/** The corpus's recorded OTLP traces (not its schema), imported the way the app imports a file. */
export function corpusTraces(): { label: string; text: string }[] {
  return readdirSync(corpusPath('traces/otlp'))
    .filter((f) => f.endsWith('.json') && !f.endsWith('.schema.json'))
    .map((f) => ({ label: `corpus ${f}`, text: readCorpus(`traces/otlp/${f}`) }));
}

export function importedRuns(): StoredRun[] {
  return corpusTraces().flatMap(({ label, text }) => {
    const result = importOtlpTrace(text, stepRegistry);
    return result.ok ? [{ label, meta: result.run, events: result.events }] : [];
  });
}
