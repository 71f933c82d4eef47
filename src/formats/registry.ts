import { chainFileFormat } from './chain-file.ts';
import { flowiseFormat } from './flowise.ts';
import type { ChainFormat, TraceFileFormat } from './format.ts';
import { langflowFormat } from './langflow.ts';
import { n8nFormat } from './n8n.ts';
import { langfuseFormat } from './langfuse.ts';
import { otlpJsonFormat } from './otlp-json.ts';
import { programFormat } from './program.ts';
import { runFileFormat } from './run-file.ts';
import { difyFormat, promptflowFormat, promptfooFormat, rivetFormat } from './yaml-tools.ts';

/**
 * Every file format Seamscope reads, one line each. Chain formats are asked in this order and
 * the first whose sniff claims the file reads it: other tools' files first (each recognises its
 * own shape), then Seamscope's chain file (any other JSON, so it gets the chain file's own
 * problems), then the exported program (everything else, told what it is not).
 */
export const chainFormats: readonly ChainFormat[] = [
  langflowFormat,
  flowiseFormat,
  n8nFormat,
  difyFormat,
  promptflowFormat,
  promptfooFormat,
  rivetFormat,
  chainFileFormat,
  programFormat,
];

/** Trace formats, told apart by their top-level keys (which do not overlap). */
export const traceFormats: readonly TraceFileFormat[] = [
  runFileFormat,
  otlpJsonFormat,
  langfuseFormat,
];
