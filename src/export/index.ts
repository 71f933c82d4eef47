/**
 * Export a chain to code that runs: a TypeScript or Python program (one function per step,
 * prompts and schemas as named constants, the control flow written out, the chain embedded)
 * over a small runtime with the engine's semantics.
 *
 * @example
 * import { exportChainFiles } from '../src/export/index.ts';
 * const { files } = await exportChainFiles(chain, { lang: 'py' });
 * for (const file of files) await writeFile(join(outDir, file.path), file.contents);
 */
export { exportChain, exportChainFiles, exportProgram, programFileName, RUNTIME_DIR, type EndpointDefaults, type ExportedFile, type ExportLanguage, type ExportOptions, type ExportResult, type ProgramExport } from './export-chain.ts';

export { createZip, type ZipEntry } from './zip.ts';
export { EXAMPLE_FILE_MAX_BYTES, EXAMPLE_FILES_MAX_BYTES, ExampleFileError, type ExampleFileRef, type ReadExampleFile } from './example-files.ts';
export { KEY_VARIABLES, keyVariablesText } from './key-variables.ts';
