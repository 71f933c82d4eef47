import type { FidelityReport } from './fidelity.ts';

/**
 * A model node's settings as another tool stores them, and how each lands on a model step:
 * carried over exactly where the step holds it (model name, temperature, max tokens, streaming),
 * changed where the step holds it another way (JSON mode → an object schema) and dropped, with
 * the reason, where it holds nothing like it (stop sequences, seed, top-p, penalties). Nothing a
 * step can hold is left at a default unsaid.
 */
export interface SourceModelSettings {
  model?: unknown;
  temperature?: unknown;
  maxTokens?: unknown;
  stream?: unknown;
  jsonMode?: unknown;
  /** Settings no model step holds, by the tool's own key: reported as dropped when set. */
  unheld?: Record<string, unknown>;
}

const DEFAULT_MAX_TOKENS = 1024;

/** A number from a number or a numeric string ("256"); null when empty or not a number. */
export function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return null;
}

const isSet = (value: unknown) => value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0) && !(typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0);

/** Sets what `config` can hold of `source` and writes each setting's fate into `report` under `where`. */
export function carryModelSettings(where: string, source: SourceModelSettings, config: Record<string, unknown>, report: FidelityReport): void {
  const model = typeof source.model === 'string' ? source.model.trim() : '';
  if (model && model.length <= 200) {
    config.model = model;
    report.kept.push({ where, what: `model ${model} (the step's model; the endpoint is the profile you run it on)` });
  } else if (model) report.dropped.push({ where, what: 'model name', why: 'longer than 200 characters' });

  const temperature = numberOf(source.temperature);
  if (temperature !== null && temperature >= 0 && temperature <= 2) {
    config.temperature = temperature;
    report.kept.push({ where, what: `temperature ${temperature}` });
  } else if (temperature !== null) report.dropped.push({ where, what: `temperature ${temperature}`, why: 'outside 0–2, which no endpoint accepts; the step uses 0' });
  else report.changed.push({ where, what: 'temperature', why: 'the file sets none (its tool then uses the provider\'s default); the step uses 0' });

  const maxTokens = numberOf(source.maxTokens);
  if (maxTokens !== null && Number.isInteger(maxTokens) && maxTokens >= 1 && maxTokens <= 1_000_000) {
    config.maxTokens = maxTokens;
    report.kept.push({ where, what: `max tokens ${maxTokens}` });
  } else {
    report.changed.push({ where, what: 'max tokens', why: `${maxTokens === null ? 'the file sets no cap' : `the file's ${maxTokens} means no cap`}, so the provider's own limit applied; a model step always has one and uses ${DEFAULT_MAX_TOKENS}` });
  }

  if (typeof source.stream === 'boolean') {
    config.stream = source.stream;
    report.kept.push({ where, what: `streaming ${source.stream ? 'on' : 'off'}` });
  }
  if (source.jsonMode === true && config.outputSchema) report.kept.push({ where, what: 'JSON mode (the step\'s output schema asks for JSON)' });
  else if (source.jsonMode === true) {
    config.outputSchema = { type: 'object' };
    report.changed.push({ where, what: 'JSON mode', why: 'became the output schema {"type": "object"}: the answer is checked to be a JSON object' });
  }
  for (const [key, value] of Object.entries(source.unheld ?? {})) {
    if (isSet(value)) report.dropped.push({ where, what: `${key} ${JSON.stringify(value)?.slice(0, 80)}`, why: 'a model step holds no such setting' });
  }
}

/** Reports a prompt carried into a step: byte for byte, or changed and how. */
export function reportPrompt(where: string, what: string, source: string, carried: string, report: FidelityReport, why: string): void {
  if (!source) return;
  if (source === carried) report.kept.push({ where, what: `${what} (${source.length} characters, byte for byte)` });
  else report.changed.push({ where, what, why });
}
