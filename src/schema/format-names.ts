// Seamscope: the JSON Schema `format` values that are enforced, and the shape each must have.
// Shared by the engine and the exported TypeScript runtime (each export writes it into its runtime
// folder: src/export/runtime-sources.ts). No matcher here: checking a schema needs the names only,
// and formats.ts matches.

/**
 * `format` is an annotation unless a validator enforces it, and a chain author who writes
 * `format: "email"` means it. These formats are checked (with the same linear-time matcher as
 * `pattern`, and the same rules in the Python runtime); any other format is reported at
 * validate as not enforced instead of being silently ignored.
 */
export const FORMAT_SHAPES: Readonly<Record<string, string>> = {
  date: '^(\\d{4})-(\\d{2})-(\\d{2})$',
  time: '^(\\d{2}):(\\d{2}):(\\d{2})(\\.\\d+)?([Zz]|[+-]\\d{2}:\\d{2})$',
  'date-time': '^(\\d{4})-(\\d{2})-(\\d{2})[Tt ](\\d{2}):(\\d{2}):(\\d{2})(\\.\\d+)?([Zz]|[+-]\\d{2}:\\d{2})$',
  email: "^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$",
  uuid: '^(urn:uuid:)?[0-9A-Fa-f]{8}-([0-9A-Fa-f]{4}-){3}[0-9A-Fa-f]{12}$',
  ipv4: '^((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)$',
  hostname: '^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\\.?$',
};

/** The formats a value is checked against, in the order the docs list them. */
export const ENFORCED_FORMATS: readonly string[] = Object.keys(FORMAT_SHAPES);

/** Whether `format` is one Seamscope checks. */
export function isEnforcedFormat(format: string): boolean {
  return Object.hasOwn(FORMAT_SHAPES, format);
}
