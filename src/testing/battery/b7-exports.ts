import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Chain } from '../../chain/schema.ts';
import { DEFAULT_SETTINGS, REPO_ROOT, runEngine, runExported, runProcess, type Capture } from '../conformance-harness.ts';
import { exportChainFiles, programFileName, type ExportLanguage, type ExportResult } from '../../export/export-chain.ts';
import { importChainSource } from '../../formats/index.ts';
import { pyString, tsString } from '../../export/literals.ts';
import { adversarialStrings } from '../adversarial-strings.ts';
import { B7_ENDINGS, B7_PLACES, buildB7Chain, type B7Chain, type FilledPlace } from './b7-chains.ts';
import { CaseClock, watchUnhandledRejections, type BatterySuite, type SuiteOptions, type SuiteResult } from './types.ts';

/**
 * B7: the adversarial strings in every place a chain holds text (b7-chains.ts lists the
 * places), many strings to a chain. Each round of chains places every string once, each round
 * in a different place. Every chain is exported in both languages; the TypeScript programs are
 * type-checked together by `tsc -p` with the export's own tsconfig.json (the programs side by
 * side share one runtime folder, checked byte-identical to each export's), the Python programs
 * compiled by one `py_compile`; each program's text is imported back and must deep-equal the
 * chain; and each run chain runs in the engine and both programs against the mock on the same
 * scripted replies, whose request bodies must match byte for byte, as must the run's end.
 */
const ROUNDS = 3;
/** Multipliers coprime with the string count's factors, so each round is a different bijection. */
const STRIDES = [1, 2, 3];

interface Planned extends B7Chain {
  k: number;
  programs: Partial<Record<ExportLanguage, ExportResult>>;
}

/**
 * The webhook's receiver: what each POST carried exactly (request target, the hostile header
 * as its raw bytes, the body), in arrival order.
 */
async function startReceiver(): Promise<{ origin: string; received: string[]; close: () => Promise<void> }> {
  const received: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const header = req.rawHeaders.flatMap((v, i) => (i % 2 === 0 && v.toLowerCase() === 'x-b7' ? [req.rawHeaders[i + 1] ?? ''] : []));
      received.push(JSON.stringify({ method: req.method, target: req.url, 'x-b7': header.map((h) => Buffer.from(h, 'latin1').toString('hex')), body: Buffer.concat(chunks).toString('utf8') }));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { origin: `http://127.0.0.1:${port}`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A string for a failure line: escaped, clipped. */
const show = (s: string, max = 80) => JSON.stringify(s.length > max ? `${s.slice(0, max)}…` : s);

function planChains(strings: readonly string[], rounds: number, webhookOrigin: string): Planned[] {
  const P = B7_PLACES.length;
  const perRound = Math.ceil(strings.length / P);
  const out: Planned[] = [];
  for (let r = 0; r < rounds; r++) {
    const stride = STRIDES[r % STRIDES.length] as number;
    for (let c = 0; c < perRound; c++) {
      const k = r * perRound + c;
      const built = buildB7Chain(k, strings, (j) => (((c * P + j) * stride) + r * 17) % strings.length, webhookOrigin);
      out.push({ ...built, k, programs: {} });
    }
  }
  return out;
}

/** Which of a chain's strings appear on a line of its program (for a compile error's report). */
function culprits(lang: ExportLanguage, line: string, filled: readonly FilledPlace[], strings: readonly string[]): string {
  // As the program spells it: in the embedded JSON, or as a literal of the language.
  const spelled = (s: string) => [JSON.stringify(s), lang === 'ts' ? tsString(s) : pyString(s)].map((t) => t.slice(1, -1));
  const hits = filled.filter((f) => (strings[f.index] as string).length > 1 && spelled(strings[f.index] as string).some((t) => line.includes(t)));
  return hits.length ? hits.slice(0, 3).map((f) => `${f.place} ${show(strings[f.index] as string)}`).join(', ') : 'no single string on the line';
}

async function writeFiles(dir: string, files: readonly { path: string; contents: string }[]): Promise<void> {
  for (const file of files) {
    await mkdir(dirname(join(dir, file.path)), { recursive: true });
    await writeFile(join(dir, file.path), file.contents);
  }
}

/** The first place two bodies differ, shown with a little context on each side. */
function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `at ${i}: engine ${show(a.slice(Math.max(0, i - 30), i + 50), 90)} vs ${show(b.slice(Math.max(0, i - 30), i + 50), 90)}`;
}

export const b7ExportStrings: BatterySuite = {
  id: 'B7',
  title: 'Adversarial strings through both exports',
  target: '≥ 500 adversarial strings in every place a chain holds text: both exports compile (tsc with the export\'s own config, py_compile), import back deep-equal, and send byte-identical requests to the engine\'s',
  async run(opts: SuiteOptions = {}): Promise<SuiteResult> {
    const strings = adversarialStrings();
    const receiver = await startReceiver();
    const chains = planChains(strings, opts.quick ? 1 : ROUNDS, receiver.origin);
    // Quick: every string still goes in (one round); one chain of each ending runs.
    const runs = opts.quick ? chains.slice(0, B7_ENDINGS.length) : chains;
    const clock = new CaseClock();
    const rejections = watchUnhandledRejections();
    const failures: string[] = [];
    const root = await mkdtemp(join(tmpdir(), 'seamscope-b7-'));
    const dirs: Record<ExportLanguage, string> = { ts: join(root, 'ts'), py: join(root, 'py') };
    let definedEnd = 0;
    let importsEqual = 0;
    let compileFailures = 0;
    let requestsCompared = 0;
    let requestsEqual = 0;
    let runMismatches = 0;
    let sharedDiffer = 0;
    const endings = new Set<string>();
    const programFiles: Record<ExportLanguage, { file: string; chain: Planned }[]> = { ts: [], py: [] };
    try {
      // Export both languages; one shared runtime per language, checked identical across exports.
      const shared: Record<ExportLanguage, Map<string, string>> = { ts: new Map(), py: new Map() };
      for (const lang of ['ts', 'py'] as const) {
        await mkdir(dirs[lang], { recursive: true });
        const names = new Set<string>();
        for (const planned of chains) {
          const derived = programFileName(planned.chain.id, lang);
          const fileName = names.has(derived) ? (lang === 'ts' ? `chain${planned.k}.ts` : `chain${planned.k}.py`) : derived;
          names.add(fileName);
          const result = await exportChainFiles(planned.chain, { lang, fileName, endpoint: DEFAULT_SETTINGS });
          planned.programs[lang] = result;
          await writeFile(join(dirs[lang], fileName), result.program.contents);
          programFiles[lang].push({ file: fileName, chain: planned });
          for (const file of result.files) {
            if (file.role === 'program') continue;
            // package.json carries the chain's name (the compiler reads only its "type"), and
            // README.md describes its chain: neither is shared, and neither is compiled.
            const key = file.path;
            const known = shared[lang].get(key);
            if (known === undefined) {
              shared[lang].set(key, file.contents);
              await writeFiles(dirs[lang], [file]);
            } else if (known !== file.contents && key !== 'package.json' && key !== 'README.md') {
              sharedDiffer++;
              failures.push(`chain ${planned.k} (${lang}): its ${key} differs from the other exports'`);
            }
          }
        }
      }
      // No node_modules beside the TypeScript programs: their runtime (the engine, bundled) needs no package.

      // Compile: one tsc with the export's tsconfig.json over every program, one py_compile.
      const tsc = await clock.time(() => runProcess(join(REPO_ROOT, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], dirs.ts, {}, 600_000));
      const tsErrors = `${tsc.stdout}${tsc.stderr}`.split('\n').filter((l) => /error TS\d+/.test(l));
      if (tsc.code !== 0 && tsErrors.length === 0) tsErrors.push(`tsc exited ${String(tsc.code)}: ${tsc.stderr.slice(0, 300)}`);
      const pyTargets = [...programFiles.py.map((p) => p.file), ...[...shared.py.keys()].filter((k) => k.endsWith('.py'))];
      const py = await clock.time(() => runProcess('python3', ['-m', 'py_compile', ...pyTargets], dirs.py, {}, 600_000));
      const pyErrors = py.stderr.split('\n').filter((l) => l.includes('File "'));
      if (py.code !== 0 && pyErrors.length === 0) pyErrors.push(`py_compile exited ${String(py.code)}: ${py.stderr.slice(0, 300)}`);
      // tsc names a file as `file(line,col): error`, py_compile as `File "file", line n`.
      const mentions = (lang: ExportLanguage, line: string, file: string) => (lang === 'ts' ? line.startsWith(`${file}(`) : line.includes(`File "${file}"`));
      for (const [lang, errors] of [['ts', tsErrors], ['py', pyErrors]] as const) {
        // Errors outside the programs (in the runtime) fail every program; they are reported once.
        const elsewhere = errors.filter((e) => !programFiles[lang].some((p) => mentions(lang, e, p.file)));
        for (const e of elsewhere.slice(0, 3)) failures.push(`${lang} runtime: ${e}`);
        for (const { file, chain } of programFiles[lang]) {
          const mine = errors.filter((e) => mentions(lang, e, file));
          if (mine.length === 0 && elsewhere.length === 0) continue;
          compileFailures++;
          if (mine.length === 0) continue;
          const at = /\((\d+),\d+\)|line (\d+)/.exec(mine[0] ?? '');
          const lineNo = Number(at?.[1] ?? at?.[2] ?? 0);
          const text = lineNo ? (await readFile(join(dirs[lang], file), 'utf8')).split('\n')[lineNo - 1] ?? '' : '';
          failures.push(`chain ${chain.k} ${lang} does not compile: ${mine[0] ?? ''} — ${culprits(lang, text, chain.filled, strings)}`);
        }
      }

      // Import back: each program's text, as written, restores its chain exactly.
      for (const planned of chains) {
        for (const lang of ['ts', 'py'] as const) {
          const program = planned.programs[lang]?.program;
          if (!program) continue;
          const text = await readFile(join(dirs[lang], program.path), 'utf8');
          const back = importChainSource(text, { fileName: program.path });
          if (back.ok && isDeepStrictEqual(back.chain, planned.chain)) importsEqual++;
          else failures.push(`chain ${planned.k} ${lang} imports back ${back.ok ? `different: ${describeDifference(planned.chain, back.chain, planned.filled, strings)}` : `with problems: ${back.problems.map((p) => `${p.path} ${p.message}`).slice(0, 2).join('; ')}`}`);
        }
      }

      // Requests: the engine and both programs on the same replies; bodies byte for byte.
      for (const planned of runs) {
        const runId = `b7-${planned.k}`;
        const settings = { ...DEFAULT_SETTINGS, structuredOutput: planned.structuredOutput };
        const started = performance.now();
        try {
          // A chain that posts to the receiver runs one way at a time, so each post is known by its order.
          const one = (lang: 'engine' | ExportLanguage) => (lang === 'engine'
            ? runEngine(planned.chain, planned.inputs, settings, planned.replies, runId)
            : runExported(planned.chain, lang, planned.inputs, settings, planned.replies, runId));
          const posted = receiver.received.length;
          const [engine, ts, pyRun] = await clock.time(async () => (planned.ending === 'webhook'
            ? [await one('engine'), await one('ts'), await one('py')]
            : Promise.all([one('engine'), one('ts'), one('py')])));
          const posts = receiver.received.slice(posted);
          if (planned.ending === 'webhook') {
            engine.rawBodies.push(posts[0] ?? '(no webhook post)');
            ts.rawBodies.push(posts[1] ?? '(no webhook post)');
            pyRun.rawBodies.push(posts[2] ?? '(no webhook post)');
          } else if (posts.length > 0) failures.push(`chain ${planned.k}: ${posts.length} webhook posts on a run that takes no webhook branch`);
          definedEnd++;
          const expected = { routed: 'succeeded', webhook: 'succeeded', unmatched: 'abstained', 'gate failed': 'abstained' }[planned.ending];
          if (engine.status !== expected) failures.push(`chain ${planned.k}: the engine's run ${engine.status} (${engine.error ?? ''}), the chain is built to end ${planned.ending} (${expected})`);
          endings.add(planned.ending);
          if (engine.rawBodies.length < planned.replies.length) failures.push(`chain ${planned.k}: the engine sent ${engine.rawBodies.length} requests, expected at least ${planned.replies.length} (${engine.status}: ${engine.error ?? ''})`);
          for (const [lang, capture] of [['ts', ts], ['py', pyRun]] as const) {
            const n = Math.max(engine.rawBodies.length, capture.rawBodies.length);
            let differ = 0;
            for (let i = 0; i < n; i++) {
              requestsCompared++;
              const a = engine.rawBodies[i] ?? '(none)';
              const b = capture.rawBodies[i] ?? '(none)';
              if (a === b) requestsEqual++;
              else if (differ++ === 0) failures.push(`chain ${planned.k} ${lang} request ${i + 1} differs ${firstDifference(a, b)}`);
            }
            const end = sameEnd(engine, capture);
            if (differ > 0 || end) {
              runMismatches++;
              if (end) failures.push(`chain ${planned.k} ${lang}: ${end}`);
            }
          }
        } catch (error) {
          failures.push(`chain ${planned.k}: the run did not end — ${show((error as Error).message, 300)}`);
        }
        if (performance.now() - started > 120_000) failures.push(`chain ${planned.k}: its three runs took over 2 minutes`);
      }
    } finally {
      rejections.stop();
      await receiver.close();
      await rm(root, { recursive: true, force: true });
    }

    const whole = new Set(chains.flatMap((c) => c.filled.filter((f) => f.whole).map((f) => f.index)));
    const used = new Set(chains.flatMap((c) => c.filled.map((f) => f.index)));
    const emptyPlaces = B7_PLACES.filter((p) => chains.some((c) => !c.filled.some((f) => f.place === p.name)));
    // A place drawn more than once in a chain (every step's name) takes one string: count it once.
    const fills = chains.reduce((n, c) => n + new Set(c.filled.map((f) => f.place)).size, 0);
    const programs = chains.length * 2;
    const importMismatches = programs - importsEqual;
    const requestMismatches = requestsCompared - requestsEqual;
    return {
      cases: programs, definedEnd: programs - compileFailures - sharedDiffer, dataLost: importMismatches, networkRequests: null, codeExecuted: null,
      worstMs: clock.worstMs, worstHeapMb: clock.worstHeapMb,
      failures: [...failures, ...rejections.reasons.map((r) => `unhandled rejection: ${r}`)],
      checks: [
        { name: 'distinct adversarial strings placed whole', ok: whole.size >= 500 && used.size === strings.length, detail: `${whole.size} whole, ${used.size}/${strings.length} placed, ${fills} fills over ${chains.length} chains` },
        { name: 'every text place filled in every chain', ok: emptyPlaces.length === 0, detail: `${B7_PLACES.length - emptyPlaces.length}/${B7_PLACES.length} places${emptyPlaces.length ? `; empty: ${emptyPlaces.map((p) => p.name).join(', ')}` : ''}` },
        { name: 'programs compile (tsc -p the export\'s tsconfig, py_compile)', ok: compileFailures === 0 && sharedDiffer === 0, detail: `${programs - compileFailures}/${programs} (${chains.length} TypeScript, ${chains.length} Python)` },
        { name: 'programs import back deep-equal', ok: importMismatches === 0, detail: `${importsEqual}/${programs}` },
        { name: 'request bodies byte-identical to the engine\'s', ok: requestsCompared > 0 && requestMismatches === 0 && runMismatches === 0 && definedEnd === runs.length, detail: `${requestsEqual}/${requestsCompared} over ${definedEnd}/${runs.length} chains × 2 programs (endings: ${[...endings].join(', ')}); ${runMismatches} runs ended differently` },
        { name: 'unhandled rejections', ok: rejections.count() === 0, detail: `${rejections.count()}` },
      ],
    };
  },
};

/** How a program's run ended differently from the engine's, or null when it did not. */
function sameEnd(engine: Capture, program: Capture): string | null {
  if (engine.status !== program.status || engine.error !== program.error) return `ended ${program.status} (${show(program.error ?? '', 200)}), the engine ${engine.status} (${show(engine.error ?? '', 200)})`;
  if (!isDeepStrictEqual(engine.output, program.output)) return `output ${show(JSON.stringify(program.output), 120)} vs the engine's ${show(JSON.stringify(engine.output), 120)}`;
  if (!isDeepStrictEqual(engine.decisions, program.decisions)) {
    const i = engine.decisions.findIndex((d, n) => d !== program.decisions[n]);
    return `decision ${show(program.decisions[i] ?? '(none)', 160)} vs the engine's ${show(engine.decisions[i] ?? '(none)', 160)}`;
  }
  return null;
}

/** The first path where an imported chain differs, and which place's string sits there. */
function describeDifference(a: Chain, b: Chain, filled: readonly FilledPlace[], strings: readonly string[]): string {
  const walk = (x: unknown, y: unknown, path: string): string | null => {
    if (isDeepStrictEqual(x, y)) return null;
    if (x && y && typeof x === 'object' && typeof y === 'object') {
      for (const key of new Set([...Object.keys(x), ...Object.keys(y)])) {
        const found = walk((x as Record<string, unknown>)[key], (y as Record<string, unknown>)[key], `${path}.${key}`);
        if (found) return found;
      }
      return `${path} (prototype or key order)`;
    }
    const hit = typeof x === 'string' ? filled.find((f) => x.includes(strings[f.index] as string)) : undefined;
    return `${path}: ${show(JSON.stringify(x) ?? 'undefined')} became ${show(JSON.stringify(y) ?? 'undefined')}${hit ? ` (${hit.place})` : ''}`;
  };
  return walk(a, b, '$') ?? 'equal';
}
