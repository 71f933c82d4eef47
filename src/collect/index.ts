/**
 * `seamscope collect`: an OTLP/HTTP receiver (Node only) that turns the traces an application
 * exports into run files, through the same importer as an OTLP/JSON file.
 *
 * @example
 * const collector = await startCollector({ port: 4318, dir: '.runs/collected', keys: [process.env.OPENAI_API_KEY],
 *   onTrace: (t) => console.log(t.ok ? t.path : t.message) });
 */
export { startCollector, pressureOf, DEFAULT_LIMITS, type Collector, type CollectorLimits, type CollectorOptions, type CollectorStats } from './server.ts';
export type { FinishedTrace } from './finish.ts';
export { decodeExportResponse, decodeStatus, type PartialSuccess } from './otlp-proto.ts';
export { DEFAULT_APP_ORIGINS, READ_PATH, normalOrigin, type ReadApiOptions } from './read-api.ts';
