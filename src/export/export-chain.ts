import { baseUrlProblem } from '../providers/profile.ts';
import { hashValue } from '../chain/hash.ts';
import { stepsNamingProfiles } from '../steps/model.config.ts';
import { parseChain } from '../chain/parse.ts';
import type { Chain } from '../chain/schema.ts';
import { chainNeedsTokenizer, stepRegistry } from '../steps/index.ts';
import type { StepRegistry } from '../steps/registry.ts';
import { emitPyProgram } from './emit/program-py.ts';
import { emitTsProgram } from './emit/program-ts.ts';
import { planExport } from './plan.ts';
import { loadRuntimeSources } from '#runtime-sources';
import { SHARED_TABLES_FILE, sharedTablesJson } from './shared-tables.ts';
import { o200kRanksText, RANKS_FILE } from './tokenizer-data.ts';
import { exampleFileRefs, readExampleFiles, type ExampleFileRef, type ReadExampleFile } from './example-files.ts';
import { exportReadme } from './readme.ts';

export type ExportLanguage = 'ts' | 'py';

/** Endpoint defaults written into the program. There is deliberately no place for a key. */
export interface EndpointDefaults {
  /** The protocol the endpoint speaks (OpenAI-compatible when absent). Python programs speak only that one. */
  protocol?: 'openai' | 'anthropic';
  baseUrl?: string;
  model?: string;
  maxOutputTokens?: number;
  contextWindow?: number;
  structuredOutput?: boolean;
}

export interface ExportOptions {
  lang: ExportLanguage;
  /** The program's file name; by default derived from the chain id. */
  fileName?: string;
  endpoint?: EndpointDefaults;
  registry?: StepRegistry;
  /**
   * Reads the files the chain's `meta.inputFiles` names (exportChainFiles only): given, they
   * travel in the export beside the program, for its `--use-examples`. The CLI reads them from
   * the chain file's folder, the app from where its demo chains' files are served.
   */
  readExampleFile?: ReadExampleFile;
}

export interface ExportedFile {
  /** Relative to the export folder, `/`-separated. */
  path: string;
  contents: string;
  role: 'program' | 'runtime' | 'package' | 'data';
}

export interface ExportResult {
  lang: ExportLanguage;
  /** The chain's revision hash, as the engine records it. */
  revision: string;
  program: ExportedFile;
  /** The program first, then the runtime files it imports. */
  files: ExportedFile[];
  /** Large data files `exportChainFiles` adds (the Python tokenizer's rank table), not yet in `files`. */
  pending: string[];
  /** Where the program differs from the chain as the app runs it, in words (shown before download). */
  notes: string[];
  /** The files `meta.inputFiles` names, which `--use-examples` reads beside the program. */
  examples: ExampleFileRef[];
  /** Of those, the ones exportChainFiles could not find (so not in `files`): say so to the person. */
  missingExamples: ExampleFileRef[];
}

/** Steps that name an endpoint profile: the exported program calls its one endpoint for all of them. */
const PYTHON_OPENAI_ONLY = 'The Python runtime calls OpenAI-compatible endpoints only, and this profile speaks Anthropic: its address and model are not written into the program. Set SEAMSCOPE_BASE_URL and SEAMSCOPE_MODEL to an OpenAI-compatible endpoint, or export TypeScript, which speaks both.';

function profileNotes(chain: Chain): string[] {
  const named = stepsNamingProfiles(chain);
  if (named.length === 0) return [];
  return [`${named.map((n) => `${n.stepId} (${n.profile})`).join(', ')} name endpoint profiles; the exported program calls its one endpoint (SEAMSCOPE_BASE_URL, SEAMSCOPE_MODEL) for every step.`];
}

export const RUNTIME_DIR: Record<ExportLanguage, string> = { ts: 'seamscope-runtime', py: 'seamscope_runtime' };

const KEY_LIKE = /^(api[-_]?key|authorization|secret|password|token)$/i;

/** A file name from a chain id: letters, digits, `.`, `_` and `-` only. */
export function programFileName(chainId: string, lang: ExportLanguage): string {
  const base = chainId.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+/, '') || 'chain';
  return lang === 'ts' ? `${base}.ts` : `${/^[0-9]/.test(base) ? 'chain_' : ''}${base.replace(/[.-]/g, '_')}.py`;
}

/** The versions an exported TypeScript program is checked and run with (the project's own); the runtime itself needs no package. */
export const RUNTIME_DEPENDENCIES = { tsx: '4.23.15', typescript: '6.0.3' } as const;

/**
 * The compiler options the exported program and its runtime's declarations are type-checked with
 * (`npm run check` in the export; battery B7 checks every adversarial export with exactly these).
 * The DOM and ES2023 libraries declare all the program uses (fetch, AbortSignal, import.meta.url),
 * so no `@types` package is needed.
 */
export const EXPORT_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2023', 'DOM'], strict: true, noEmit: true, allowImportingTsExtensions: true,
    skipLibCheck: false, noUncheckedIndexedAccess: true, isolatedModules: true, verbatimModuleSyntax: true, types: [],
  },
  include: ['*.ts', `${RUNTIME_DIR.ts}/*.d.ts`],
} as const;

const tsconfigJson: ExportedFile = { path: 'tsconfig.json', contents: `${JSON.stringify(EXPORT_TSCONFIG, null, 2)}\n`, role: 'package' };

/** `type: module` (the program uses top-level await and import.meta, the runtime is an ES module); no run-time dependencies. */
function packageJson(chain: Chain, fileName: string): ExportedFile {
  const pkg = {
    name: fileName.replace(/\.ts$/, '').toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[._-]+/, '').slice(0, 200) || 'seamscope-chain',
    private: true,
    description: `Exported from Seamscope: ${chain.name}`,
    type: 'module',
    engines: { node: '>=20' },
    scripts: { start: `tsx ${fileName}`, check: 'tsc --noEmit -p tsconfig.json' },
    devDependencies: { tsx: RUNTIME_DEPENDENCIES.tsx, typescript: RUNTIME_DEPENDENCIES.typescript },
  };
  return { path: 'package.json', contents: `${JSON.stringify(pkg, null, 2)}\n`, role: 'package' };
}

/** The program alone: what `exportChain` emits before it adds the runtime (nothing to load, so synchronous). */
export interface ProgramExport {
  lang: ExportLanguage;
  /** The chain's revision hash, as the engine records it. */
  revision: string;
  program: ExportedFile;
  /** Where the program differs from the chain as the app runs it, in words (shown before download). */
  notes: string[];
  /** Whether the program counts tokens (its runtime needs the tokenizer). */
  needsTokenizer: boolean;
}

/**
 * The exported program of a chain, without its runtime: the export dialog shows it at once,
 * and what only reads the program (import back, markers, escaping) needs nothing else. The
 * chain must be valid; nothing secret is ever written.
 *
 * @example
 * const { program } = exportProgram(chain, { lang: 'ts' });
 */
export function exportProgram(chain: Chain, options: ExportOptions): ProgramExport {
  const registry = options.registry ?? stepRegistry;
  const parsed = parseChain(chain, registry);
  if (!parsed.ok) throw new Error(`the chain is not valid: ${parsed.problems.map((p) => `${p.path} ${p.message}`).join('; ')}`);
  const { lang } = options;
  // The Python runtime calls OpenAI-compatible endpoints only: an Anthropic profile's address is
  // not written there (it would be called with the wrong protocol), and the notes say so.
  const anthropic = options.endpoint?.protocol === 'anthropic';
  const pythonCannotSpeak = anthropic && lang === 'py';
  const endpoint: Record<string, unknown> = {
    ...(anthropic && !pythonCannotSpeak ? { protocol: 'anthropic' } : {}),
    ...(options.endpoint?.baseUrl && !pythonCannotSpeak ? { baseUrl: options.endpoint.baseUrl } : {}),
    model: options.endpoint?.model || 'gpt-4.1-mini',
    maxOutputTokens: options.endpoint?.maxOutputTokens ?? 4096,
    contextWindow: options.endpoint?.contextWindow ?? 128_000,
    structuredOutput: options.endpoint?.structuredOutput ?? true,
  };
  if (pythonCannotSpeak) delete endpoint.model;
  for (const key of Object.keys(options.endpoint ?? {})) if (KEY_LIKE.test(key)) throw new Error(`refusing to write "${key}" into exported code: keys come from the environment`);
  const urlProblem = options.endpoint?.baseUrl ? baseUrlProblem(options.endpoint.baseUrl) : null;
  if (urlProblem) throw new Error(`refusing to write the base URL into exported code: it ${urlProblem}`);
  const fileName = options.fileName ?? programFileName(chain.id, lang);
  const revision = hashValue(chain);
  const plan = planExport(parsed.chain, registry);
  // The program embeds the chain exactly as given, so importing it back restores it.
  const programOptions = { fileName, runtimeDir: RUNTIME_DIR[lang], revision, endpoint, needsTokenizer: chainNeedsTokenizer(parsed.chain, registry), embedded: chain };
  const contents = lang === 'ts' ? emitTsProgram(plan, programOptions) : emitPyProgram(plan, programOptions);
  return { lang, revision, program: { path: fileName, contents, role: 'program' }, notes: [...profileNotes(parsed.chain), ...(pythonCannotSpeak ? [PYTHON_OPENAI_ONLY] : [])], needsTokenizer: programOptions.needsTokenizer };
}

/**
 * Exports a chain as a program in TypeScript or Python: the program (a thin typed wrapper
 * with the chain embedded, one function per step and the control flow written out) plus the
 * runtime it runs on, from `#runtime-sources` (runtime-sources.ts): for TypeScript the engine
 * itself, bundled; for Python its runtime with the tables it shares with the engine.
 * The chain must be valid; nothing secret is ever written.
 *
 * @example
 * const { files } = await exportChain(chain, { lang: 'py' });
 * for (const f of files) await writeFile(join(dir, f.path), f.contents);
 */
export async function exportChain(chain: Chain, options: ExportOptions): Promise<ExportResult> {
  const { lang, revision, program, notes, needsTokenizer } = exportProgram(chain, options);
  const folder = await runtimeFiles(lang);
  const runtime = Object.entries(folder).map(([path, text]): ExportedFile => ({ path: `${RUNTIME_DIR[lang]}/${path}`, contents: text, role: 'runtime' }));
  const support = lang === 'ts' ? [packageJson(chain, program.path), tsconfigJson] : [];
  const pending = lang === 'py' && needsTokenizer ? [`${RUNTIME_DIR.py}/${RANKS_FILE}`] : [];
  // Compared in lower case: on a case-insensitive disk `Readme.md` would overwrite `README.md`.
  const own = new Set([program.path, README, ...support.map((f) => f.path)].map((p) => p.toLowerCase()));
  const runtimeDir = RUNTIME_DIR[lang].toLowerCase();
  const examples = exampleFileRefs(chain, (path) => {
    const lower = path.toLowerCase();
    return own.has(lower) || lower === runtimeDir || lower.startsWith(`${runtimeDir}/`);
  });
  const readme: ExportedFile = { path: README, contents: exportReadme(chain, { lang, programPath: program.path, runtimeDir: RUNTIME_DIR[lang], revision, examples }), role: 'package' };
  return { lang, revision, program, files: [program, ...runtime, ...support, readme], pending, notes, examples, missingExamples: [] };
}

const README = 'README.md';

/**
 * The runtime folder of an export: the files `#runtime-sources` gives and, for Python, the
 * tables it shares with the engine, written now from the TypeScript sources (shared-tables.ts).
 *
 * @example
 * const files = await runtimeFiles('py'); // { '__init__.py': …, …, 'shared.json': … }
 */
export async function runtimeFiles(lang: ExportLanguage): Promise<Record<string, string>> {
  const files = await loadRuntimeSources(lang);
  if (lang === 'ts') return files;
  if (SHARED_TABLES_FILE in files) throw new Error(`the Python runtime has a file named ${SHARED_TABLES_FILE}: that name is the shared tables'`);
  return { ...files, [SHARED_TABLES_FILE]: sharedTablesJson() };
}

/**
 * Every file of the export, with the data files `exportChain` leaves pending: a Python export
 * of a chain that counts tokens gets the o200k rank table, so its counts match the engine's;
 * with `readExampleFile`, the files `meta.inputFiles` names (over the size limits the export is
 * refused with an ExampleFileError naming the file; files not found are in `missingExamples`).
 *
 * @example
 * const { files } = await exportChainFiles(chain, { lang: 'py' });
 */
export async function exportChainFiles(chain: Chain, options: ExportOptions): Promise<ExportResult> {
  const result = await exportChain(chain, options);
  const examples = options.readExampleFile ? await readExampleFiles(result.examples, options.readExampleFile) : { files: [], missing: [] };
  const data = examples.files.map((f): ExportedFile => ({ ...f, role: 'data' }));
  const ranks = result.pending.length > 0 ? await o200kRanksText() : '';
  const pending = result.pending.map((path): ExportedFile => ({ path, contents: ranks, role: 'data' }));
  return { ...result, files: [...result.files, ...pending, ...data], pending: [], missingExamples: examples.missing };
}
