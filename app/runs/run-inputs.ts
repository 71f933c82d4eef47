import { ownValue, setOwn } from '../../src/chain/index.ts';
import type { Chain, ChainInput } from '../../src/chain/index.ts';

// Input names come from the chain file: "constructor" or "__proto__" are names like any other,
// so every lookup and store below goes through ownValue/setOwn.

/** The text a Run dialog box starts with: the demo file, else the input's example. */
export function defaultInputText(input: ChainInput, files: Record<string, string>): string {
  const file = ownValue(files, input.name);
  if (file !== undefined) return file;
  if (input.example === undefined) return '';
  return typeof input.example === 'string' ? input.example : JSON.stringify(input.example, null, 2);
}

function wantsText(input: ChainInput): boolean {
  const type = input.schema.type;
  return type === 'string' || (Array.isArray(type) && type.includes('string') && type.length === 1);
}

/**
 * Typed values from the dialog's texts: strings stay text; other types are read as JSON
 * (falling back to the text, so the engine reports the mismatch in the input's own terms).
 */
export function inputValues(chain: Chain, texts: Record<string, string>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const input of chain.inputs) {
    const text = ownValue(texts, input.name) ?? '';
    if (text === '' && !input.required) continue;
    if (wantsText(input)) setOwn(values, input.name, text);
    else {
      try {
        setOwn(values, input.name, JSON.parse(text));
      } catch {
        setOwn(values, input.name, text);
      }
    }
  }
  return values;
}

/**
 * What stops the dialog's texts from starting a run, per input name: a required input left empty,
 * or a non-text input whose text is not JSON. Checked before the run starts (nothing is paid).
 */
export function inputProblems(chain: Chain, texts: Record<string, string>): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const input of chain.inputs) {
    const text = ownValue(texts, input.name) ?? '';
    if (text.trim() === '') {
      if (input.required) setOwn(problems, input.name, `${input.name} is required`);
      continue;
    }
    if (wantsText(input)) continue;
    try {
      JSON.parse(text);
    } catch {
      setOwn(problems, input.name, `${input.name} must be JSON (${String(input.schema.type ?? 'a value')})`);
    }
  }
  return problems;
}
