// Seamscope: the JSON Schema `format` values that are enforced. Shared by the engine and the
// exported TypeScript runtime (copied there by src/export/runtime/bundle.ts; edit src/schema/).
import { compilePattern, type LinearPattern } from './pattern.ts';

/**
 * `format` is an annotation unless a validator enforces it, and a chain author who writes
 * `format: "email"` means it. These formats are checked (with the same linear-time matcher as
 * `pattern`, and the same rules in the Python runtime); any other format is reported at
 * validate as not enforced instead of being silently ignored.
 */
const shapes: Record<string, string> = {
  date: '^(\\d{4})-(\\d{2})-(\\d{2})$',
  time: '^(\\d{2}):(\\d{2}):(\\d{2})(\\.\\d+)?([Zz]|[+-]\\d{2}:\\d{2})$',
  'date-time': '^(\\d{4})-(\\d{2})-(\\d{2})[Tt ](\\d{2}):(\\d{2}):(\\d{2})(\\.\\d+)?([Zz]|[+-]\\d{2}:\\d{2})$',
  email: "^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$",
  uuid: '^(urn:uuid:)?[0-9A-Fa-f]{8}-([0-9A-Fa-f]{4}-){3}[0-9A-Fa-f]{12}$',
  ipv4: '^((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)$',
  hostname: '^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\\.?$',
};

/** The formats a value is checked against, in the order the docs list them. */
export const ENFORCED_FORMATS: readonly string[] = Object.keys(shapes);

const compiled = new Map<string, LinearPattern>();
function shape(name: string): LinearPattern {
  let p = compiled.get(name);
  if (!p) {
    const r = compilePattern(shapes[name] as string);
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

/** Whether `format` is one Seamscope checks. */
export function isEnforcedFormat(format: string): boolean {
  return Object.hasOwn(shapes, format);
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
