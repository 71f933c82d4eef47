import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { ExportLanguage } from '../export/export-chain.ts';
import { importChainSource } from '../formats/index.ts';
import type { OptionTable } from './args.ts';
import { terminalLine } from './terminal-text.ts';
import { ContainedFileError, readContainedFile } from './contained-file.ts';
import { ExampleFileError, type ReadExampleFile } from '../export/example-files.ts';

/**
 * `seamscope export <chain.json> --lang ts|py --out <dir>`: writes the program, its runtime
 * folder (and for TypeScript a package.json) into <dir>. The input may also be an exported
 * program: its embedded chain is exported again. Nothing secret is written; the programs read
 * their key from the environment.
 */
export interface ExportIo {
  out: (text: string) => void;
  err: (text: string) => void;
  env: Record<string, string | undefined>;
}

export const exportUsage = `Usage:
  seamscope export <chain.json> --lang ts|py --out <dir> [--model NAME] [--base-url URL] [--file NAME]
                                [--max-output-tokens N] [--context-window N] [--no-structured-output]
Writes a program that runs the chain with the same semantics as the app: one function per step, the control
flow written out, the chain embedded (import the file back into Seamscope to get the chain), over a small runtime
folder beside it, and a README. The files the chain names in meta.inputFiles (read from the chain file's own
folder, at most 5 MB each and 20 MB together) go beside the program, so that its --use-examples runs at once.
The model and base URL are defaults written into the program; the environment overrides them (SEAMSCOPE_BASE_URL,
SEAMSCOPE_MODEL) and the key is read only from the environment (the README names the variables).`;

export const exportOptions: OptionTable = {
  lang: 'string', out: 'string', model: 'string', 'base-url': 'string', file: 'string',
  'max-output-tokens': 'string', 'context-window': 'string', 'no-structured-output': 'flag',
};

function positiveInt(value: string | true | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value !== 'string' || !Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a whole number above 0`);
  return n;
}

export async function exportCommand(positionals: readonly string[], options: Record<string, string | true>, io: ExportIo): Promise<number> {
  const [chainPath] = positionals;
  const lang = options.lang;
  const outDir = options.out;
  if (!chainPath || (lang !== 'ts' && lang !== 'py') || typeof outDir !== 'string') {
    io.err(!chainPath ? exportUsage : lang !== 'ts' && lang !== 'py' ? `--lang must be ts or py\n${exportUsage}` : `--out <dir> is required\n${exportUsage}`);
    return 2;
  }
  let text: string;
  try {
    text = await readFile(chainPath, 'utf8');
  } catch (error) {
    io.err(`Cannot read ${terminalLine(chainPath)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    return 1;
  }
  const parsed = importChainSource(text, { fileName: chainPath });
  if (!parsed.ok) {
    io.err(`${terminalLine(chainPath)}: ${parsed.problems.length} problem${parsed.problems.length === 1 ? '' : 's'}`);
    for (const p of parsed.problems) io.err(`  ${terminalLine(p.path)}  ${terminalLine(p.message)}`);
    return 1;
  }
  let endpoint;
  try {
    endpoint = {
      model: typeof options.model === 'string' ? options.model : undefined,
      baseUrl: typeof options['base-url'] === 'string' ? options['base-url'] : undefined,
      maxOutputTokens: positiveInt(options['max-output-tokens'], 'max-output-tokens'),
      contextWindow: positiveInt(options['context-window'], 'context-window'),
      structuredOutput: options['no-structured-output'] === true ? false : undefined,
    };
  } catch (error) {
    io.err(`${(error as Error).message}\n${exportUsage}`);
    return 2;
  }
  const fileName = typeof options.file === 'string' ? options.file : undefined;
  if (fileName !== undefined && !/^[A-Za-z0-9._-]+\.(ts|py)$/.test(fileName)) {
    io.err(`--file must be a plain file name ending in .${lang}`);
    return 2;
  }
  // The exporter and the runtime it writes (most of the CLI's code) load only for this command.
  const { exportChainFiles } = await import('../export/export-chain.ts');
  // Example files come only from inside the chain file's folder (readContainedFile); one that is not there is said below.
  const readExampleFile: ReadExampleFile = async (path, label) => {
    const missing = await access(join(dirname(resolve(chainPath)), path)).then(() => false, () => true);
    return missing ? undefined : readContainedFile(chainPath, label, path);
  };
  let result;
  try {
    result = await exportChainFiles(parsed.chain, { lang: lang as ExportLanguage, fileName, endpoint, readExampleFile });
  } catch (error) {
    if (!(error instanceof ExampleFileError) && !(error instanceof ContainedFileError)) throw error;
    io.err(`Not exported: ${terminalLine(error.message)}`);
    return 1;
  }
  for (const file of result.files) {
    const path = join(resolve(outDir), file.path);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file.contents);
  }
  const run = lang === 'ts' ? `npm install && npx tsx ${result.program.path}` : `python3 ${result.program.path}`;
  io.err(`exported "${terminalLine(parsed.chain.name)}" (revision ${result.revision}) as ${lang === 'ts' ? 'TypeScript' : 'Python'}: ${result.files.length} files in ${outDir}`);
  for (const m of result.missingExamples) {
    io.err(`warning: ${terminalLine(m.path)} (meta.inputFiles.${terminalLine(m.input)}) is not beside ${terminalLine(chainPath)}, so it is not in the export: --use-examples will ask for it`);
  }
  io.out(join(outDir, result.program.path));
  io.err(`run it: cd ${outDir} && ${run} --help`);
  if (result.examples.length > result.missingExamples.length || parsed.chain.inputs.some((i) => i.example !== undefined)) io.err(`on its examples: cd ${outDir} && ${run} --use-examples`);
  return 0;
}
