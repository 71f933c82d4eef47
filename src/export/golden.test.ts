import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseChain } from '../chain/parse.ts';
import type { Chain } from '../chain/schema.ts';
import { createMockModelServer } from '../testing/mock-server.ts';
import { API_KEY, DEFAULT_SETTINGS, demoInputs, REPO_ROOT, runEngine, runProcess } from '../testing/conformance-harness.ts';
import { exportChainFiles, exportProgram, type ExportLanguage } from './export-chain.ts';
import { importChainSource } from '../formats/index.ts';
import { stepRegistry } from '../steps/index.ts';

/**
 * Golden files: the exported program of every demo chain, in both languages, checked in under
 * src/export/__golden__/ and reviewed as diffs. The runtime is not checked in beside them: the
 * last tests build an export here (the TypeScript runtime bundled from src/runtime in this
 * process, the Python runtime from its sources), put the
 * goldens in its folder, type-check them there (`tsc -p` the export's own tsconfig.json) or
 * compile them (Python), and run one program against the mock model server like the engine.
 * `UPDATE_GOLDEN=1 npx vitest run src/export/golden.test.ts` (`npm run golden:update`)
 * rewrites the programs.
 */
const update = process.env.UPDATE_GOLDEN === '1';
const goldenDir = new URL('./__golden__/', import.meta.url).pathname;
const demoDir = join(REPO_ROOT, 'public/demo');
const index = JSON.parse(readFileSync(join(demoDir, 'index.json'), 'utf8')) as { file: string; id: string }[];
const LANGS: ExportLanguage[] = ['ts', 'py'];
/** The golden that runs against the runtime built in the test. */
const RUN = 'demo-summarise-then-answer';

function demoChain(file: string): Chain {
  const parsed = parseChain(readFileSync(join(demoDir, file), 'utf8'), stepRegistry);
  if (!parsed.ok) throw new Error(`${file} does not parse`);
  return parsed.chain;
}

function check(path: string, actual: string): void {
  if (update) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  let expected: string;
  try {
    expected = readFileSync(path, 'utf8');
  } catch {
    throw new Error(`${path} is missing: run UPDATE_GOLDEN=1 npx vitest run src/export/golden.test.ts and review the new file`);
  }
  expect(actual, `${path} differs from the export: review the diff, then UPDATE_GOLDEN=1`).toBe(expected);
}

const made: string[] = [];
afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true });
});

/** A fresh export of the RUN chain (runtime, package.json, tsconfig.json, data) with every golden program of the language beside it. */
async function exportWithGoldens(lang: ExportLanguage): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `seamscope-golden-${lang}-`));
  made.push(dir);
  const entry = index.find((e) => e.id === RUN);
  if (!entry) throw new Error(`${RUN} is not in public/demo/index.json`);
  const { files } = await exportChainFiles(demoChain(entry.file), { lang, fileName: `${RUN}.${lang}` });
  for (const file of files) {
    await mkdir(dirname(join(dir, file.path)), { recursive: true });
    await writeFile(join(dir, file.path), file.contents);
  }
  // TypeScript: the engine bundled (index.js) and its declarations; Python: the runtime's modules.
  expect(files.filter((f) => f.role === 'runtime').length).toBeGreaterThan(lang === 'ts' ? 2 : 10);
  for (const e of index) await copyFile(join(goldenDir, `${e.id}.${lang}`), join(dir, `${e.id}.${lang}`));
  // No node_modules beside the TypeScript export: the runtime needs no package, its types none either.
  return dir;
}

describe('golden files', () => {
  for (const entry of index) {
    for (const lang of LANGS) {
      it(`${entry.id}.${lang}`, () => {
        const chain = demoChain(entry.file);
        const fileName = `${entry.id}.${lang}`;
        const { program } = exportProgram(chain, { lang, fileName });
        check(join(goldenDir, fileName), program.contents);
        // Importing the export restores the chain exactly.
        const back = importChainSource(program.contents);
        expect(back.ok && back.chain).toEqual(chain);
      });
    }
  }
});

// After the programs (tests in a file run in order), so an UPDATE_GOLDEN run checks what it wrote.
describe('the goldens over the runtime built here', () => {
  const dirs: Partial<Record<ExportLanguage, Promise<string>>> = {};
  const dirOf = (lang: ExportLanguage) => (dirs[lang] ??= exportWithGoldens(lang));

  it('the TypeScript goldens and the runtime pass tsc -p with the export\'s own tsconfig.json', async () => {
    const dir = await dirOf('ts');
    const { stdout, stderr, code } = await runProcess(join(REPO_ROOT, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], dir, {}, 120_000);
    expect(stdout + stderr).toBe('');
    expect(code).toBe(0);
  }, 120_000);

  it('the Python goldens and the runtime compile', async () => {
    const dir = await dirOf('py');
    const script = 'import pathlib, sys\nfor path in sorted(pathlib.Path(".").rglob("*.py")):\n    compile(path.read_text(encoding="utf-8"), str(path), "exec")\nprint(len(list(pathlib.Path(".").rglob("*.py"))))';
    const { code, stdout, stderr } = await runProcess('python3', ['-c', script], dir, {});
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(Number(stdout)).toBeGreaterThan(index.length + 10);
  });

  for (const lang of LANGS) {
    it(`${RUN}.${lang} runs on that runtime like the engine (same output, same request bodies)`, async () => {
      const entry = index.find((e) => e.id === RUN)!;
      const chain = demoChain(entry.file);
      const inputs = await demoInputs(chain);
      const runId = `golden-${lang}`;
      const engine = await runEngine(chain, inputs, DEFAULT_SETTINGS, [], runId);
      const dir = await dirOf(lang);
      await writeFile(join(dir, 'inputs.json'), JSON.stringify(inputs));
      const mock = await createMockModelServer();
      let result: Awaited<ReturnType<typeof runProcess>>;
      let bodies: string[];
      try {
        const command = lang === 'ts' ? join(REPO_ROOT, 'node_modules/.bin/tsx') : 'python3';
        result = await runProcess(command, [`${RUN}.${lang}`, '--inputs', 'inputs.json', '--trace', 'trace.json', '--run-id', runId], dir, { SEAMSCOPE_BASE_URL: `${mock.url}/v1`, SEAMSCOPE_API_KEY: API_KEY, OPENAI_API_KEY: '' });
        bodies = mock.requests.map((r) => JSON.stringify(r.body));
      } finally {
        await mock.close();
      }
      expect(result.code, result.stderr).toBe(0);
      const { run } = JSON.parse(await readFile(join(dir, 'trace.json'), 'utf8')) as { run: { status: string; output?: unknown } };
      expect(engine.status).toBe('succeeded');
      expect(run.status).toBe(engine.status);
      expect(run.output).toEqual(engine.output);
      expect(bodies).toEqual(engine.bodies);
    }, 120_000);
  }
});
