import { createReadStream } from 'node:fs';
import { appendFile, mkdir, readFile, readdir, stat, truncate, writeFile } from 'node:fs/promises';
import { MAX_CHAIN_BYTES } from '../chain/parse.ts';
import { basename, dirname, join, resolve } from 'node:path';
import { buildControls } from '../eval/controls.ts';
import type { Chain } from '../chain/schema.ts';
import { evalTable, formatEvalTable, parseScorerArg, readCsvDataset, readDataset, readDatasetText, resultKey, runEval, shareRateLimit, textLines, type EvalProgress, type EvalVariant, type ItemResult, type ScorerSpec } from '../eval/index.ts';
import { hashValue } from '../chain/hash.ts';
import { createProviderForProfile, runModelSettings } from '../providers/profiles.ts';
import { stepRegistry } from '../steps/index.ts';
import { unconfirmedEgress } from '../steps/egress.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { parseRunFile, toRunFile } from '../trace/run-file.ts';
import type { OptionTable, ParsedArgs } from './args.ts';
import { loadChain, loadSuite, type Io } from './load-chain.ts';
import { allowedWebhookOrigins, completeInputs, profileFromArgs } from './run.ts';
import { parseQueueUrl, type QueueTarget } from '../batch/queue-url.ts';
import { terminalLine } from './terminal-text.ts';
import { createNodeFetch } from './node-fetch.ts';
import { readResults } from './results-file.ts';

/**
 * `seamscope eval <chain.json>... --dataset FILE`: every chain over every item, through the
 * same engine as `run`, each item an ordinary run file under --out. Results are appended to
 * `results.jsonl` as each item finishes, so an interrupted eval resumes where it stopped (the
 * same command again): a finished item is never run, or paid for, twice.
 */
export const evalUsage = `Usage: seamscope eval <chain.json>... --dataset FILE.dataset.jsonl [--scorer S]... [--concurrency N]
       seamscope eval promptfooconfig.yaml [options]  (a file that holds its own chains and tests)
                       [--volume N] [--price-in USD_PER_M] [--price-out USD_PER_M] [--endpoint URL --model M [--protocol openai|anthropic]]
                       [--controls] [--min-accuracy X] [--json] [--out DIR] [--allow-webhook ORIGIN]...
                       [--csv-map COLUMN=FIELD]... [--frozen DIR --stage STEP]
                       [--queue redis://HOST:PORT[/DB] | postgres://[USER@]HOST[:PORT]/DB [--rate-limit N/s|N/min]]
       --controls adds, per chain, the single-prompt baseline (meta.baseline, else one generated from its prompts), an identity control and an ablation per model stage.
       Scorers: facts, exact[:path], contains[:path], number[:path], json-field:path, regex:PATTERN, route, abstain,
       judge:CHAIN (a chain file or id run as scorer on the output; inputs output, expected and the item's; returns true/false or {pass, reason})
       (default: the dataset's, else those its expected keys choose). Rerun the same command to resume an interrupted eval.
       A .csv dataset maps its columns by header (id, inputs.<name> or a bare input name, facts, route, abstain, output,
       sections, chunks); --csv-map "Gold facts=facts" maps another column, "notes=-" drops one.
       --frozen DIR --stage STEP freezes the boundary into STEP: each item's steps before it are restored from the run files
       an earlier eval wrote under DIR (--out), so STEP and what follows rerun against exactly what they received, with no upstream call.
       --queue puts one job per item and variant on BullMQ instead of running them here; \`seamscope worker\` processes
       (same --endpoint, --model and --protocol) run them on any machine, each with its own API key. --rate-limit caps the
       items started per second (or minute) for that endpoint across every worker. The same command reattaches to the batch.`;
export const evalOptions: OptionTable = {
  dataset: 'string', scorer: 'list', 'csv-map': 'list', frozen: 'string', stage: 'string', concurrency: 'string', volume: 'string', 'price-in': 'string', 'price-out': 'string',
  endpoint: 'string', model: 'string', protocol: 'string', 'no-structured-output': 'flag', 'min-accuracy': 'string', json: 'flag', out: 'string', help: 'flag', controls: 'flag',
  'allow-webhook': 'list', queue: 'string', 'rate-limit': 'string',
};

class ArgumentError extends Error {}

function numberOption(options: Record<string, string | true>, name: string, check: (n: number) => boolean, what: string): number | undefined {
  const raw = options[name];
  if (raw === undefined) return undefined;
  const n = typeof raw === 'string' ? Number(raw) : NaN;
  if (!Number.isFinite(n) || !check(n)) throw new ArgumentError(`--${name} must be ${what}, got "${String(raw)}"`);
  return n;
}

/** Run files are the tool's own output, but a folder may come from anyone: bounded, parsed and checked like any trace. */
const MAX_FROZEN_RUN_BYTES = 64 * 1024 * 1024;

/** The run an earlier eval wrote for this variant and item under `dir`, or null (that item then runs whole). */
async function frozenRun(dir: string, variant: string, itemId: string) {
  const path = join(dir, 'runs', fileSafe(variant), `${fileSafe(itemId)}.run.json`);
  const info = await stat(path).catch(() => null);
  if (!info?.isFile() || info.size > MAX_FROZEN_RUN_BYTES) return null;
  const parsed = parseRunFile(await readFile(path, 'utf8'));
  return parsed.ok ? { meta: parsed.file.run, events: parsed.file.events } : null;
}

/** A file name for an id; ids that had to change get a hash, so "a/b" and "a-b" never share a file. */
const fileSafe = (s: string) => {
  const safe = s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^\.+/, '').slice(0, 120) || 'item';
  return safe === s ? safe : `${safe}-${hashValue(s).slice(0, 8)}`;
};

export async function evalCommand(args: ParsedArgs, io: Io): Promise<number> {
  if (args.options.help !== undefined) return io.out(evalUsage), 0;
  let settings;
  try {
    settings = evalSettings(args);
  } catch (error) {
    if (error instanceof ArgumentError) return io.err(`${error.message}\n${evalUsage}`), 2;
    throw error;
  }
  const { chainPaths, scorers, concurrency, minAccuracy, allowEgress, csvMap, frozen } = settings;
  // Without --dataset, the one file given holds the evaluation itself (a promptfoo config): its chains and its tests.
  const suite = settings.datasetPath === undefined ? await loadSuite(chainPaths[0] as string, io) : null;
  if (settings.datasetPath === undefined && !suite) return 2;
  const datasetPath = settings.datasetPath ?? (chainPaths[0] as string);
  const chains: { chain: Chain; path: string }[] = [];
  for (const [path, loaded] of suite ? suite.chains.map((chain) => [datasetPath, chain] as const) : chainPaths.map((p) => [p, null] as const)) {
    const chain = loaded ?? await loadChain(path, io);
    if (!chain) return 2;
    // An eval runs each chain hundreds of times: a webhook would post for every item. Only when asked.
    const refused = unconfirmedEgress(chain, stepRegistry, allowEgress);
    if (refused.length > 0) return io.err(`${terminalLine(path)}: the chain posts to a webhook (${[...new Set(refused.map((t) => t.origin))].join(', ')}), once per item in an eval; name each origin with --allow-webhook to allow it`), 2;
    chains.push({ chain, path });
  }
  // Judge scorers name a chain: one of the chains given, by id, one the evaluated file brings (a promptfoo rubric's), or a chain file.
  const judges = new Map<string, Chain>();
  for (const judge of suite?.judges ?? []) judges.set(judge.id, judge);
  for (const spec of scorers) {
    if (spec.type !== 'judge' || judges.has(spec.chain)) continue;
    const given = chains.find((c) => c.chain.id === spec.chain)?.chain ?? (await loadChain(spec.chain, io));
    if (!given) return io.err(`--scorer judge:${terminalLine(spec.chain)}: no such chain file or chain id among those given`), 2;
    if (unconfirmedEgress(given, stepRegistry, allowEgress).length > 0) return io.err(`${terminalLine(spec.chain)}: the judge posts to a webhook; eval does not run chains with side effects`), 2;
    judges.set(spec.chain, given);
  }
  if (settings.queue && (judges.size > 0 || frozen)) return io.err(`--queue runs items on workers, which get the chains under evaluation only: run judge scorers and --frozen without --queue`), 2;
  const stream = suite ? null : createReadStream(datasetPath, { encoding: 'utf8', highWaterMark: 256 * 1024 });
  const read = suite || !stream ? await readDatasetText(suite?.datasetText ?? '') : /\.csv$/i.test(datasetPath) ? await readCsvDataset(stream, csvMap) : await readDataset(textLines(stream));
  if (!read.ok) return io.err(`${terminalLine(datasetPath)}:${read.line}: ${terminalLine(read.message)}; nothing was run`), 2;
  const dataset = read.dataset;

  // Every item's inputs, completed and read before the first call: a missing file fails now, not after an hour of paid calls.
  const cache = new Map<string, string>();
  const variants: EvalVariant[] = [];
  const itemsByVariant = new Map<string, typeof dataset>();
  const names = new Set<string>();
  // Inputs are completed from the chain a variant derives from (a control keeps its chain's input files).
  const addVariant = async (variant: EvalVariant, source: { chain: Chain; path: string }) => {
    let name = variant.name;
    for (let n = 2; names.has(name); n++) name = `${variant.name}-${n}`;
    names.add(name);
    variants.push({ ...variant, name });
    const items = [];
    for (const item of dataset.items) items.push({ ...item, inputs: await completeInputs(source.chain, source.path, item.inputs, datasetPath, cache) });
    itemsByVariant.set(name, { ...dataset, items });
    return name;
  };
  try {
    for (const source of chains) {
      const name = await addVariant({ name: source.chain.id, kind: 'chain', chain: source.chain }, source);
      if (args.options.controls === undefined) continue;
      const named = typeof source.chain.meta?.baseline === 'string' ? await findBaseline(source.chain.meta.baseline, source.path, chains, io) : null;
      const plan = buildControls(source.chain, stepRegistry, { name, baseline: named?.chain ?? null });
      // The named baseline completes its items from its own file; a generated one stands in for it from the chain's.
      for (const v of plan.variants) await addVariant(v, v.kind === 'baseline' && named && v.chain === named.chain ? named : source);
      for (const n of plan.notes) io.err(`control: ${terminalLine(name)} ${terminalLine(n)}`);
      for (const n of plan.notApplicable) io.err(`control not applicable: ${terminalLine(name)} ${n.kind}${n.step ? ` of ${terminalLine(n.step)}` : ''}: ${terminalLine(n.reason)}`);
    }
  } catch (error) {
    return io.err(`${terminalLine(datasetPath)}: ${terminalLine((error as Error).message)}; nothing was run`), 2;
  }

  const profile = profileFromArgs(args.options);
  const apiKey = io.env.SEAMSCOPE_API_KEY ?? (profile.kind === 'anthropic' ? io.env.ANTHROPIC_API_KEY : io.env.OPENAI_API_KEY);
  const shared = shareRateLimit(createProviderForProfile(profile, { apiKey }));
  // One fetch (and its kept-alive sockets) for every run of the eval.
  const nodeFetch = createNodeFetch();
  // The eval's identity: what it runs on. Results are reused on resume only for the very same eval.
  const evalId = `eval-${hashValue({ chains: chains.map((c) => c.chain), items: [...itemsByVariant.values()].map((d) => d.items), scorers, model: profile.model, endpoint: profile.baseUrl, ...(frozen ? { frozen: [resolve(frozen.dir), frozen.stage] } : {}), ...(judges.size ? { judges: [...judges.values()] } : {}) }).slice(0, 12)}`;
  const outDir = resolve(typeof args.options.out === 'string' ? args.options.out : join('.evals', evalId));
  const resultsPath = join(outDir, 'results.jsonl');
  const manifestPath = join(outDir, 'eval.json');
  await mkdir(outDir, { recursive: true });
  const manifest = await readFile(manifestPath, 'utf8').then((t) => JSON.parse(t) as { evalId?: unknown }, () => null);
  if (manifest && manifest.evalId !== evalId) {
    return io.err(`${terminalLine(outDir)} holds the results of a different eval (the chains, the dataset, the scorers or the model changed); choose another --out or remove it`), 2;
  }
  if (!manifest) await writeFile(manifestPath, `${JSON.stringify({ format: 'seamscope.eval-run', version: 1, evalId, chains: chainPaths.map((p) => basename(p)), dataset: basename(datasetPath), model: profile.model }, null, 2)}\n`);
  const stored = await readResults(resultsPath);
  if (typeof stored === 'string') return io.err(`${stored}; fix or remove it (or choose another --out)`), 2;
  // A line the last run was writing when it stopped: cut, or ended, so the next line starts on a line of its own.
  if (stored.repair === 'cut') {
    await truncate(resultsPath, stored.keepBytes);
    io.err(`${terminalLine(resultsPath)}: dropped a torn last line (the run stopped while writing it); that item runs again`);
  } else if (stored.repair === 'newline') await appendFile(resultsPath, '\n');
  const earlier = stored.results.filter((r) => names.has(r.variant));
  const results = [...earlier];
  const done = new Set(earlier.map((r) => resultKey(r.variant, r.itemId)));
  if (earlier.length) io.err(`resuming: ${earlier.length} item run(s) already in ${terminalLine(resultsPath)}`);

  const record = async (result: ItemResult, runFile: string | null) => {
    if (runFile !== null) {
      const dir = join(outDir, 'runs', fileSafe(result.variant));
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, `${fileSafe(result.itemId)}.run.json`), `${runFile}\n`);
    }
    // The result line last: once it is there, the item counts as done.
    await appendFile(resultsPath, `${JSON.stringify(result)}\n`);
    results.push(result);
  };
  const runIdFor = (v: EvalVariant, item: { id: string }) => `${evalId}-${fileSafe(v.name)}-${fileSafe(item.id)}-${hashValue([v.name, item.id]).slice(0, 6)}`;

  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  let lastProgress = 0;
  const progress = (label: string) => (p: EvalProgress) => {
    const t = Date.now();
    if (t - lastProgress < 250 && p.done < p.total) return;
    lastProgress = t;
    io.err(`  ${label}: ${p.done}/${p.total} done${p.failed ? `, ${p.failed} failed` : ''}${p.etaMs !== null && p.done < p.total ? `, about ${Math.ceil(p.etaMs / 1000)} s left` : ''}`);
  };
  try {
    if (settings.queue) {
      const { runQueuedEval } = await import('./eval-queue.ts');
      await runQueuedEval({
        target: settings.queue, rateLimit: settings.rateLimit, profile, batchId: evalId, reattach: manifest !== null, variants, itemsByVariant, dataset, scorers, done,
        runIdFor, record, signal: controller.signal, onProgress: progress('batch'), io,
      });
    } else {
      for (const variant of variants) {
        const repo = createMemoryRunRepository();
        await runEval({
          variants: [variant], dataset: itemsByVariant.get(variant.name) ?? dataset, scorers, provider: shared.provider, model: runModelSettings(profile), repo,
          concurrency, signal: controller.signal, done, registry: stepRegistry, allowEgress, runIdFor, judges, fetch: nodeFetch,
          ...(frozen ? { frozen: { stage: frozen.stage, runFor: (v: EvalVariant, item: { id: string }) => frozenRun(frozen.dir, v.name, item.id) } } : {}),
          onResult: async (result, run) => {
            await record(result, JSON.stringify(toRunFile(run.meta, run.events)));
            await repo.deleteRun(run.meta.id);
          },
          onProgress: progress(variant.name),
        });
        if (controller.signal.aborted) break;
      }
    }
  } finally {
    process.off('SIGINT', onSignal);
  }
  if (controller.signal.aborted) {
    io.err(`cancelled: ${results.length} item run(s) are in ${terminalLine(resultsPath)}; the same command resumes`);
    return 130;
  }

  const table = evalTable(variants, results, {
    ...(settings.volume !== undefined ? { volume: settings.volume } : {}),
    priceIn: settings.priceIn ?? profile.prices.input, priceOut: settings.priceOut ?? profile.prices.output,
  });
  const failures = results.filter((r) => r.status === 'failed');
  if (args.options.json !== undefined) {
    io.out(JSON.stringify({
      format: 'seamscope.eval', version: 1, dataset: { items: dataset.items.length, file: basename(datasetPath), ...(dataset.name ? { name: dataset.name } : {}) },
      variants: table.variants.map((v) => ({
        name: v.name, kind: v.kind, chainId: v.chainId, ...(v.step ? { step: v.step } : {}), n: v.n, accuracy: v.accuracy, stderr: v.stderr, tiesWith: v.tiesWith,
        abstained: v.abstained, p50Ms: v.p50Ms, p95Ms: v.p95Ms, inputTokens: v.inputTokens, outputTokens: v.outputTokens, calls: v.calls,
        spendPerMonth: v.spendPerMonth, spendFormula: v.spendFormula,
      })),
      steps: table.steps, boundaries: table.boundaries, compounding: table.compounding.map((c) => ({ variant: c.variant, predicted: c.predicted, measured: c.measured, rates: c.rates, explanation: c.estimate.explanation })), tieRule: table.tieRule,
      failures: failures.map((r) => ({ variant: r.variant, item: r.itemId, runId: r.runId, error: r.error ?? r.status })),
      out: outDir,
    }));
  } else {
    io.out(`${dataset.items.length} items × ${variants.length} variant(s)${shared.held ? `; ${shared.held} call(s) waited out a shared rate limit` : ''}`);
    for (const line of formatEvalTable(table)) io.out(terminalLine(line));
    for (const f of failures.slice(0, 10)) io.out(`failed: ${terminalLine(f.variant)} / ${terminalLine(f.itemId)}: ${terminalLine(f.error ?? f.status)}`);
    io.out(`run files: ${terminalLine(outDir)}`);
  }
  const below = minAccuracy === undefined ? [] : table.variants.filter((v) => v.accuracy < minAccuracy);
  for (const v of below) io.err(`${terminalLine(v.name)}: accuracy ${(v.accuracy * 100).toFixed(1)}% is below --min-accuracy ${minAccuracy}`);
  return below.length ? 1 : 0;
}

/**
 * The chain `meta.baseline` names, by id: one of the chains given, else a `*.chain.json` in the
 * naming chain's own folder (that folder only, like every file a chain names). Not found: the
 * generated baseline is used instead, and said.
 */
async function findBaseline(id: string, chainPath: string, given: readonly { chain: Chain; path: string }[], io: Io): Promise<{ chain: Chain; path: string } | null> {
  const listed = given.find((c) => c.chain.id === id);
  if (listed) return listed;
  const folder = dirname(resolve(chainPath));
  const names = (await readdir(folder).catch(() => [] as string[])).filter((f) => f.endsWith('.chain.json')).slice(0, 500);
  for (const file of names) {
    const path = join(folder, file);
    // Only plain files a chain could be: a giant file or a device in the folder is never read.
    const info = await stat(path).catch(() => null);
    if (!info?.isFile() || info.size > MAX_CHAIN_BYTES) continue;
    const text = await readFile(path, 'utf8').catch(() => '');
    if (!text.includes(id)) continue;
    const chain = await loadChain(path, { ...io, err: () => undefined });
    if (chain?.id === id) return { chain, path };
  }
  io.err(`note: ${terminalLine(chainPath)} names the baseline "${terminalLine(id)}", which is neither given nor in its folder; a baseline is generated instead`);
  return null;
}

function evalSettings(args: ParsedArgs) {
  const chainPaths = args.positionals;
  if (chainPaths.length === 0) throw new ArgumentError('eval needs at least one chain file');
  const dataset = args.options.dataset;
  if (dataset !== undefined && typeof dataset !== 'string') throw new ArgumentError('--dataset needs a file');
  if (dataset === undefined && chainPaths.length !== 1) throw new ArgumentError('eval needs --dataset FILE.dataset.jsonl (or one file that holds its own tests, such as a promptfoo config)');
  const datasetPath: string | undefined = dataset;
  const scorers: ScorerSpec[] = [];
  for (const raw of args.lists.scorer ?? []) {
    const parsed = parseScorerArg(raw);
    if (!parsed.ok) throw new ArgumentError(parsed.message);
    scorers.push(parsed.spec);
  }
  const frozenDir = args.options.frozen;
  const stage = args.options.stage;
  if ((frozenDir === undefined) !== (stage === undefined)) throw new ArgumentError('--frozen DIR and --stage STEP go together');
  const frozen = typeof frozenDir === 'string' && typeof stage === 'string' ? { dir: frozenDir, stage } : null;
  const csvMap: Record<string, string> = {};
  for (const raw of args.lists['csv-map'] ?? []) {
    const at = raw.indexOf('=');
    if (at <= 0) throw new ArgumentError(`--csv-map takes COLUMN=FIELD, got "${raw}"`);
    csvMap[raw.slice(0, at).trim()] = raw.slice(at + 1).trim();
  }
  return {
    chainPaths, datasetPath, scorers, csvMap, frozen,
    concurrency: numberOption(args.options, 'concurrency', (n) => Number.isInteger(n) && n >= 1 && n <= 256, 'a whole number from 1 to 256') ?? 4,
    volume: numberOption(args.options, 'volume', (n) => n >= 0, 'a number of items a month'),
    priceIn: numberOption(args.options, 'price-in', (n) => n >= 0, 'USD per million input tokens'),
    priceOut: numberOption(args.options, 'price-out', (n) => n >= 0, 'USD per million output tokens'),
    minAccuracy: numberOption(args.options, 'min-accuracy', (n) => n >= 0 && n <= 1, 'a fraction from 0 to 1'),
    allowEgress: argumentCheck(() => allowedWebhookOrigins(args.lists['allow-webhook'] ?? [])),
    ...queueSettings(args.options),
  };
}

function argumentCheck<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new ArgumentError((error as Error).message);
  }
}

/** --queue and --rate-limit, checked before anything runs. */
function queueSettings(options: Record<string, string | true>): { queue?: QueueTarget; rateLimit?: { max: number; durationMs: number } } {
  const rate = options['rate-limit'];
  if (typeof options.queue !== 'string') {
    if (rate !== undefined) throw new ArgumentError('--rate-limit applies to a --queue batch (a local eval has --concurrency)');
    return {};
  }
  const parsed = parseQueueUrl(options.queue);
  if (!parsed.ok) throw new ArgumentError(parsed.message);
  if (rate === undefined) return { queue: parsed.target };
  const m = typeof rate === 'string' ? /^(\d+)\/(s|min)$/.exec(rate) : null;
  const max = Number(m?.[1]);
  if (!m || !Number.isInteger(max) || max < 1 || max > 1_000_000) throw new ArgumentError(`--rate-limit must be N/s or N/min (items started, across every worker), got "${String(rate)}"`);
  return { queue: parsed.target, rateLimit: { max, durationMs: m[2] === 's' ? 1_000 : 60_000 } };
}
