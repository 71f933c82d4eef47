import type { CodeWriter } from '../code-writer.ts';
import { commentText, pyInline, pyString, textLines, tsString } from '../literals.ts';
import type { ExportStep } from '../plan.ts';

/** The identifiers one step gets in the generated file, all claimed from the file's scope. */
export interface StepNames {
  /** The step's spec constant: `SELECT`. */
  spec: string;
  /** Its function: `selectStep` / `select_step`. */
  fn: string;
  /** Its result in the control flow: `select`. */
  result: string;
  /** Python only: the local function that runs it among steps that run at once: `select_task`. */
  task?: string;
  /** Constants for the prompt, the system message and the output schema. */
  prompt: string;
  system: string;
  schema: string;
}

export interface EmitStep {
  planned: ExportStep;
  names: StepNames;
}

/** A spec field: a literal value or a reference to a constant already written. */
export type SpecField = [key: string, value: { json: unknown } | { ref: string }];

const str = (s: EmitStep, key: string) => String(s.planned.config[key] ?? '');

export function stepTitle(s: EmitStep): string {
  const { step } = s.planned;
  return commentText(`${step.id}${step.name ? ` · ${step.name}` : ''} (${step.kind})`);
}

/** The step's name and description as one line of documentation. */
export function stepDoc(s: EmitStep): string {
  const { step } = s.planned;
  return commentText([step.name, step.description].filter(Boolean).join(': ') || step.id);
}

function commonFields(s: EmitStep): SpecField[] {
  const p = s.planned;
  const fields: SpecField[] = [
    ['id', { json: p.step.id }],
    ['name', { json: p.step.name }],
    ['bindings', { json: p.bindings }],
  ];
  if (p.untrusted.length > 0) fields.push(['untrusted', { json: p.untrusted }]);
  if (p.onFail !== 'abort') fields.push(['onFail', { json: p.onFail }]);
  if (p.conditional && p.after.length > 0) fields.push(['after', { json: p.after }]);
  if (p.conditional && p.chosenBy.length > 0) fields.push(['chosenBy', { json: p.chosenBy }]);
  return fields;
}

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** `SELECT = rt.ModelSpec(…)` with keyword arguments. */
export function pySpec(w: CodeWriter, s: EmitStep, type: string, extra: SpecField[]): void {
  w.block(`${s.names.spec} = rt.${type}(`, () => {
    for (const [key, value] of [...commonFields(s), ...extra]) {
      w.lines(`${snake(key)}=${'ref' in value ? value.ref : pyInline(value.json)},`);
    }
  }, ')');
}

/** A text constant, split at its newlines so a prompt reads line by line. */
export function tsText(w: CodeWriter, name: string, text: string): void {
  const lines = textLines(text);
  if (lines.length === 1) return w.line(`export const ${name} = ${tsString(text)};`);
  w.line(`export const ${name} =`);
  w.indent(() => lines.forEach((line, i) => w.line(`${tsString(line)}${i === lines.length - 1 ? ';' : ' +'}`)));
}

export function pyText(w: CodeWriter, name: string, text: string): void {
  const lines = textLines(text);
  if (lines.length === 1) return w.line(`${name} = ${pyString(text)}`);
  w.block(`${name} = (`, () => lines.forEach((line) => w.line(pyString(line))), ')');
}

/** The prompt, system and schema constants of a model-like step in Python, and its spec fields. */
export function modelConstants(w: CodeWriter, s: EmitStep): SpecField[] {
  const cfg = s.planned.config;
  const system = str(s, 'system');
  if (system) pyText(w, s.names.system, system);
  pyText(w, s.names.prompt, str(s, 'prompt'));
  const schema = cfg.outputSchema as Record<string, unknown> | null;
  if (schema) w.lines(`${s.names.schema} = ${pyInline(schema)}`);
  return [
    ['system', system ? { ref: s.names.system } : { json: '' }],
    ['prompt', { ref: s.names.prompt }],
    ['outputSchema', schema ? { ref: s.names.schema } : { json: null }],
    ['schemaName', { json: cfg.schemaName }],
    ['model', { json: cfg.model }],
    ['temperature', { json: cfg.temperature }],
    ['maxTokens', { json: cfg.maxTokens }],
    ['retries', { json: cfg.retries }],
    ['stream', { json: cfg.stream }],
    ['inputBudget', { json: cfg.inputBudget }],
    ['truncate', { json: cfg.truncate ?? null }],
    // Only when declared, so chains without tools export exactly as before.
    ...(Array.isArray(cfg.tools) && cfg.tools.length > 0 ? ([['tools', { json: cfg.tools }], ['toolChoice', { json: cfg.toolChoice ?? null }]] as SpecField[]) : []),
  ];
}
