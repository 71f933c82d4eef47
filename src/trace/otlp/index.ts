/**
 * Trace interop: a run as OTLP/JSON with the OpenTelemetry GenAI conventions, and OTLP/JSON
 * traces of LLM calls (GenAI, its older generations, OpenInference, Vercel AI SDK) and Langfuse
 * trace exports as runs; importTraceText detects which of those (or a .run.json) a file is.
 */
export { exportRunToOtlp, OTLP_SCOPE } from './export.ts';
export { importOtlpTrace, importCheckedOtlpTrace, type ImportOtlpResult, type RunNaming } from './import.ts';
export { mapLlmAttributes, type Convention, type LlmCall } from './conventions.ts';
export { MAX_TRACE_BYTES } from './guard.ts';
export type { OtlpTraceData, OtlpSpan } from './otlp-json.ts';
export { importLangfuseExport } from './langfuse.ts';
