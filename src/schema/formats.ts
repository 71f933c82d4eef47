// Seamscope: values checked against the JSON Schema `format` they name. Shared by the engine and
// the exported TypeScript runtime (each export writes it into its runtime folder:
// src/export/runtime-sources.ts).
import { FORMAT_SHAPES, isEnforcedFormat } from './format-names.ts';
import { compilePattern, type LinearPattern } from './pattern.ts';

export { ENFORCED_FORMATS, isEnforcedFormat } from './format-names.ts';

const compiled = new Map<string, LinearPattern>();
function shape(name: string): LinearPattern {
  let p = compiled.get(name);
  if (!p) {
    const r = compilePattern(FORMAT_SHAPES[name] as string);
    if (!r.ok) throw new Error(`format ${name}: ${r.problem}`);
    compiled.set(name, (p = r.pattern));
  }
  return p;
}

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const leap = (y: number) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);

function dateOk(text: string): boolean {
  const [y, m, d] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  return m >= 1 && m <= 12 && d >= 1 && d <= (m === 2 && !leap(y) ? 28 : (DAYS[m - 1] as number));
}

function timeOk(text: string): boolean {
  const [h, min, s] = text.slice(0, 8).split(':').map(Number) as [number, number, number];
  const zone = /[+-](\d{2}):(\d{2})$/.exec(text);
  return h <= 23 && min <= 59 && s <= 60 && (!zone || (Number(zone[1]) <= 23 && Number(zone[2]) <= 59));
}

/** Whether `value` has the shape `format` names; formats that are not enforced accept anything. */
export function matchesFormat(format: string, value: string): boolean {
  if (!isEnforcedFormat(format)) return true;
  if (!shape(format).test(value)) return false;
  switch (format) {
    case 'date': return dateOk(value);
    case 'time': return timeOk(value);
    case 'date-time': return dateOk(value) && timeOk(value.slice(11));
    case 'email': return value.length <= 254;
    case 'hostname': return value.replace(/\.$/, '').length <= 253;
    default: return true;
  }
}
