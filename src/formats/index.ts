/**
 * Every file that comes in: one file per format plus a registry (`registry.ts`). Each format
 * sniffs a file (its name and text) and reads it as a chain (`toChain`, with a fidelity report
 * when it came from another tool) or as a run (`toRun`). The CLI, the Library's Import, drag
 * and drop and the file picker's accepted types all read the registry.
 *
 * @example
 * import { importChainSource, fidelityLines } from '../src/formats/index.ts';
 * const result = importChainSource(text, { fileName: 'flow.json' });
 * if (result.ok && result.report) for (const line of fidelityLines(result.report)) console.log(line);
 */
export { acceptedFileTypes, formatOf, importChainSource, importSuiteSource, type ImportChainOptions, type ImportChainResult, type ImportSuiteResult } from './import-chain.ts';
export { createFidelityReport, fidelityLines, fidelityOf, type FidelityEntry, type FidelityReport } from './fidelity.ts';
export type { ChainFormat, FileFormat, TraceFileFormat } from './format.ts';
export { chainFormats, traceFormats } from './registry.ts';
export { embeddedChainJson, isExportedProgram } from './program.ts';
export { importTraceText, traceFormatOf, TRACE_FORMAT_NAMES, type ImportTraceResult, type TraceFormat } from './traces.ts';
