import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseChain } from '../chain/parse.ts';
import { runProcess } from '../testing/conformance-harness.ts';
import { exportChain, RUNTIME_DIR, type ExportLanguage } from './export-chain.ts';
import { importChainSource } from './import-chain.ts';
import { RUNTIME_FILES } from './runtime-files.ts';
import { RUNTIME_FILES_PATH, runtimeFilesModule, schemaCopies } from './runtime/bundle.ts';
import { stepRegistry } from '../steps/index.ts';

/**
 * Golden files: the exported program of every demo chain, in both languages, checked in under
 * src/export/__golden__/ and reviewed as diffs, with a copy of each runtime beside them so the
 * goldens type-check (tsc) and run (python3) as they are. `UPDATE_GOLDEN=1 npx vitest run
 * src/export/golden.test.ts` rewrites them (and src/export/runtime-files.ts).
 */
const update = process.env.UPDATE_GOLDEN === '1';
const goldenDir = new URL('./__golden__/', import.meta.url).pathname;
const demoDir = new URL('../../public/demo/', import.meta.url).pathname;
const index = JSON.parse(readFileSync(join(demoDir, 'index.json'), 'utf8')) as { file: string; id: string }[];

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

describe('golden files', () => {
  it('the TypeScript runtime\'s validator files are verbatim copies of src/schema (npm run export:runtime)', () => {
    for (const { name, text } of schemaCopies()) expect(readFileSync(new URL(`./runtime/ts/${name}`, import.meta.url), 'utf8'), name).toBe(text);
  });

  it('runtime-files.ts holds the current runtime sources', () => {
    check(RUNTIME_FILES_PATH.pathname, runtimeFilesModule());
  });

  for (const lang of ['ts', 'py'] as ExportLanguage[]) {
    it(`the ${lang} runtime copy beside the goldens is current`, () => {
      const dir = join(goldenDir, RUNTIME_DIR[lang]);
      if (update) rmSync(dir, { recursive: true, force: true });
      for (const [path, text] of Object.entries(RUNTIME_FILES[lang])) check(join(dir, path), text);
      if (!update) expect(readdirSync(dir).filter((f) => f !== '__pycache__').sort()).toEqual(Object.keys(RUNTIME_FILES[lang]).sort());
    });
  }

  it('the Python goldens and their runtime compile (the TypeScript ones are type-checked by the project\'s tsc)', async () => {
    const files = [...index.map((e) => `${e.id}.py`), ...Object.keys(RUNTIME_FILES.py).map((f) => `${RUNTIME_DIR.py}/${f}`)];
    const script = 'import sys\nfor path in sys.argv[1:]:\n    compile(open(path, encoding="utf-8").read(), path, "exec")';
    const { code, stderr } = await runProcess('python3', ['-c', script, ...files], goldenDir, {});
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  for (const entry of index) {
    for (const lang of ['ts', 'py'] as ExportLanguage[]) {
      it(`${entry.id}.${lang}`, () => {
        const parsed = parseChain(readFileSync(join(demoDir, entry.file), 'utf8'), stepRegistry);
        if (!parsed.ok) throw new Error(`${entry.file} does not parse`);
        const fileName = `${entry.id}.${lang}`;
        const { program } = exportChain(parsed.chain, { lang, fileName });
        check(join(goldenDir, fileName), program.contents);
        // Importing the export restores the chain exactly.
        const back = importChainSource(program.contents);
        expect(back.ok && back.chain).toEqual(parsed.chain);
      });
    }
  }
});
