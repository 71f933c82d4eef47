import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { OptionTable } from './args.ts';
import type { Io } from './load-chain.ts';
import { terminalLine } from './terminal-text.ts';

/**
 * `seamscope convert <trace> --to run|otlp --out FILE`: reads a `.run.json`, an OTLP/JSON trace
 * or a Langfuse export (detected from the content) and writes it as a Seamscope run file or as
 * OTLP/JSON with the GenAI conventions (plus Seamscope's own keys, so it converts back).
 * `seamscope convert <flow> --to chain --out FILE` reads any file the formats registry reads as a
 * chain (another tool's flow, an exported program) and writes it as a chain file, printing the
 * import's fidelity report. The input is only read; the one file written is the one --out names.
 */
export const convertUsage = `Usage: seamscope convert <trace> --to run|otlp --out FILE
       seamscope convert <flow> --to chain --out FILE
       <trace> is a .run.json, an OTLP/JSON trace or a Langfuse trace export (the format is detected from the content);
       --to run writes a Seamscope run file (what inspect, label and the app read), --to otlp an OTLP/JSON trace;
       --to chain writes a .chain.json from a Langflow, Flowise, n8n, Dify, Prompt flow or promptfoo file (or a flow's folder) or an exported program (with what was kept, changed and dropped).`;

export const convertOptions: OptionTable = { to: 'string', out: 'string' };

const TARGETS = { run: 'a Seamscope run file', otlp: 'an OTLP/JSON trace' } as const;

export async function convertCommand(positionals: readonly string[], options: Record<string, string | true>, io: Io): Promise<number> {
  const [path, extra] = positionals;
  const to = options.to;
  const out = options.out;
  if (!path || extra !== undefined) return io.err(convertUsage), 2;
  if (to !== 'run' && to !== 'otlp' && to !== 'chain') return io.err(`--to must be run, otlp or chain\n${convertUsage}`), 2;
  if (typeof out !== 'string' || out === '') return io.err(`--out FILE is required\n${convertUsage}`), 2;
  if (resolve(out) === resolve(path)) return io.err(`--out names the input file ${terminalLine(path)}; write the conversion to another file`), 2;
  if (to === 'chain') {
    const { loadChain } = await import('./load-chain.ts');
    const chain = await loadChain(path, io);
    if (!chain) return 1;
    await mkdir(dirname(resolve(out)), { recursive: true });
    await writeFile(out, `${JSON.stringify(chain, null, 2)}\n`);
    io.err(`wrote a Seamscope chain file: "${terminalLine(chain.name)}", ${chain.steps.length} steps, ${chain.inputs.length} inputs`);
    io.out(out);
    return 0;
  }
  // The importers and the exporter load only for the commands that read traces.
  const [{ formatPhrase, loadTrace }, { exportRunToOtlp }, { toRunFile }] = await Promise.all([
    import('./load-trace.ts'), import('../trace/otlp/index.ts'), import('../trace/index.ts'),
  ]);
  const trace = await loadTrace(path, io);
  if (!trace) return 1;
  const value = to === 'run' ? toRunFile(trace.run, trace.events) : exportRunToOtlp(trace.run, trace.events);
  await mkdir(dirname(resolve(out)), { recursive: true });
  await writeFile(out, `${JSON.stringify(value, null, 2)}\n`);
  const calls = trace.events.filter((e) => e.type === 'step.attempt').length;
  io.err(`read ${terminalLine(path)} as ${formatPhrase(trace.format)}: run ${terminalLine(trace.run.id)} "${terminalLine(trace.run.chainName)}" (${trace.run.status}), ${calls} model call${calls === 1 ? '' : 's'}`);
  for (const warning of trace.warnings) io.err(`note: ${terminalLine(warning)}`);
  io.err(`wrote ${TARGETS[to]}`);
  io.out(out);
  return 0;
}
