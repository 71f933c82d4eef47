import { formatPath } from '../chain/parse.ts';
import type { Chain } from '../chain/schema.ts';
import { chainSchemaFindings } from '../chain/schema-check.ts';
import { stepRegistry } from '../steps/index.ts';
import { chainEgress } from '../steps/egress.ts';
import { parseArgs } from './args.ts';
import { budgetUsage } from './budget-args.ts';
import { collectUsage } from './collect-usage.ts';
import { convertOptions, convertUsage } from './convert.ts';
import { exportCommand, exportOptions, exportUsage } from './export.ts';
import { inspectCommand, inspectOptions, inspectUsage } from './inspect.ts';
import { labelOptions, labelUsage } from './label-usage.ts';
import { loadChain, type Io } from './load-chain.ts';
import { terminalBlock, terminalLine } from './terminal-text.ts';
import { planUsage } from './plan-usage.ts';

/**
 * `seamscope` — the headless face of the same engine the app runs.
 *   seamscope validate <chain.json>
 *   seamscope run <chain.json> [--inputs <file>] [--endpoint URL --model M [--protocol openai|anthropic]] [--out run.json]
 * Keys come from the environment only (SEAMSCOPE_API_KEY, OPENAI_API_KEY, ANTHROPIC_API_KEY).
 */
const usage = `Usage:
  seamscope validate <chain.json>
  seamscope run <chain.json> [--inputs inputs.json] [--endpoint URL --model NAME] [--protocol openai|anthropic]
                             [--no-structured-output] [--out run.json] [--allow-webhook ORIGIN]...
                             ${budgetUsage}
Inputs: a JSON object of input values; a value {"$file": "path"} reads text from that file, which must be inside the
inputs file's folder. Without --inputs, a chain's meta.inputFiles (files inside the chain's folder) and input examples
are used; a name that leaves the folder, absolute or through a symlink, is refused. Without --endpoint, the offline demo model runs.
API keys are read from SEAMSCOPE_API_KEY, OPENAI_API_KEY or ANTHROPIC_API_KEY, never from arguments.
A webhook step posts only to an origin named by --allow-webhook (e.g. --allow-webhook https://hooks.example.com);
without it, a chain with a webhook does not run at all.
${inspectUsage}
${convertUsage}
${labelUsage}
  seamscope eval <chain.json>... --dataset FILE.dataset.jsonl [--scorer S]... [--concurrency N] [--volume N] [--json] [--out DIR]
                 [--queue redis://HOST:PORT]  (eval --help for all)
  seamscope worker --queue redis://HOST:PORT [--concurrency N] [--endpoint URL --model NAME]  (worker --help for all)
${exportUsage}
${planUsage}
${collectUsage}`;

const defaultIo: Io = { out: (t) => process.stdout.write(`${t}\n`), err: (t) => process.stderr.write(`${t}\n`), env: process.env };

/** What `validate` says about egress: every origin the chain would post to, and the flag that allows it. */
function egressWarnings(chain: Chain): string[] {
  return chainEgress(chain, stepRegistry).map((t) => `warning: step "${terminalLine(t.stepName)}" (${t.stepId}) posts to ${t.origin}: unconfirmed egress; \`run\` refuses it unless --allow-webhook ${t.origin} is given`);
}

/**
 * The output boundary: every line the CLI prints passes terminalBlock, so no control or bidi
 * character from a file, a trace or a model reaches the terminal, whatever path printed it.
 * Values placed inside one line (names, paths, messages) also go through terminalLine, which
 * escapes line breaks too, so a value cannot forge a line of its own.
 */
function guardedIo(io: Io): Io {
  return { out: (t) => io.out(terminalBlock(t)), err: (t) => io.err(terminalBlock(t)), env: io.env };
}

export async function main(argv: string[], rawIo: Io = defaultIo): Promise<number> {
  const io = guardedIo(rawIo);
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'validate': {
        const [path] = parseArgs(rest, {}, command).positionals;
        if (!path) return io.err(usage), 2;
        const chain = await loadChain(path, io);
        if (!chain) return 1;
        // A design error (a read nothing is bound to, a webhook before the end) is a problem: the
        // chain would run and return nothing, or send data out early. Lint loads only here.
        const { lintChain } = await import('../chain/lint.ts');
        const errors = lintChain(chain, stepRegistry).filter((f) => f.severity === 'error');
        const shape = `"${terminalLine(chain.name)}", ${chain.steps.length} steps, ${chain.inputs.length} inputs`;
        if (errors.length) io.err(`${terminalLine(path)}: ${errors.length} error${errors.length === 1 ? '' : 's'} — ${shape}`);
        else io.out(`${terminalLine(path)}: ok — ${shape}`);
        for (const f of errors) io.err(`  error: ${terminalLine(f.stepId ?? 'chain')}: ${terminalLine(f.message)} (${f.code})`);
        for (const line of egressWarnings(chain)) io.err(line);
        if (!errors.length) for (const line of await (await import('./validate-conditions.ts')).conditionWarnings(chain, path)) io.err(line);
        // Sound, but promising a check that does not happen (an unenforced format): said, never silent.
        for (const f of chainSchemaFindings(chain, stepRegistry)) io.err(`note: ${terminalLine(formatPath(f.path))}: ${terminalLine(f.message)}`);
        return errors.length ? 1 : 0;
      }
      case 'run': {
        // The engine, the providers and the tokenizer load only for `run` (validate starts faster).
        const { runCommand, runOptions } = await import('./run.ts');
        return await runCommand(parseArgs(rest, runOptions, command), io, usage);
      }
      case 'export': {
        const args = parseArgs(rest, exportOptions, command);
        return await exportCommand(args.positionals, args.options, io);
      }
      case 'inspect': {
        const args = parseArgs(rest, inspectOptions, command);
        return await inspectCommand(args.positionals, args.options, io, args.lists);
      }
      case 'convert': {
        const args = parseArgs(rest, convertOptions, command);
        const { convertCommand } = await import('./convert.ts');
        return await convertCommand(args.positionals, args.options, io);
      }
      case 'eval': {
        const { evalCommand, evalOptions } = await import('./eval.ts');
        return await evalCommand(parseArgs(rest, evalOptions, command), io);
      }
      case 'worker': {
        const { workerCommand, workerOptions } = await import('./worker.ts');
        return await workerCommand(parseArgs(rest, workerOptions, command), io);
      }
      case 'plan': {
        // The planner and the tokenizer load only for `plan`.
        const { planCommand, planOptions } = await import('./plan.ts');
        return await planCommand(parseArgs(rest, planOptions, command), io);
      }
      case 'collect': {
        const { collectCommand, collectOptions } = await import('./collect.ts');
        // Ctrl+C (or a service manager's TERM) stops it; what is pending is written first.
        const stop = new AbortController();
        const onSignal = () => stop.abort();
        process.once('SIGINT', onSignal);
        process.once('SIGTERM', onSignal);
        try {
          return await collectCommand(parseArgs(rest, collectOptions, command), io, stop.signal);
        } finally {
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
        }
      }
      case 'label': {
        const args = parseArgs(rest, labelOptions, command);
        const { labelCommand } = await import('./label.ts');
        return await labelCommand(args.positionals, args.options, io);
      }
      case undefined:
      case 'help':
      case '--help':
        io.out(usage);
        return command ? 0 : 2;
      default:
        io.err(`Unknown command "${terminalLine(command)}".\n${usage}`);
        return 2;
    }
  } catch (error) {
    io.err(`Error: ${terminalLine((error as Error).message)}`);
    return 1;
  }
}
