/**
 * The strings in a step config that name other steps: route targets (`to`), the default route
 * (`defaultTo`) and on-fail fallbacks (`fallback:<id>`). Pasting and renaming rewrite exactly
 * these; every other string (prompts, labels, schemas) is left as it is.
 */
function remapId(value: string, ids: ReadonlyMap<string, string>, exists: (id: string) => boolean): string | null {
  const fallback = value.startsWith('fallback:') ? value.slice(9) : null;
  const id = fallback ?? value;
  const mapped = ids.get(id) ?? (exists(id) ? id : null);
  if (mapped === null) return fallback !== null ? 'abort' : null;
  return fallback !== null ? `fallback:${mapped}` : mapped;
}

/**
 * A copy of `config` whose step targets are mapped through `ids`; a target neither mapped nor
 * existing is dropped (a default route becomes null, a fallback becomes abort).
 */
export function remapStepTargets(config: Record<string, unknown>, ids: ReadonlyMap<string, string>, exists: (id: string) => boolean): Record<string, unknown> {
  return Object.fromEntries(Object.entries(config).map(([k, v]) => [k, remapValue(v, ids, exists, k)]));
}

function remapValue(config: unknown, ids: ReadonlyMap<string, string>, exists: (id: string) => boolean, key: string): unknown {
  if (Array.isArray(config)) return config.map((v) => remapValue(v, ids, exists, key));
  if (config && typeof config === 'object') {
    return Object.fromEntries(Object.entries(config).map(([k, v]) => [k, remapValue(v, ids, exists, k)]));
  }
  if (typeof config === 'string' && (key === 'to' || key === 'defaultTo' || (key === 'onFail' && config.startsWith('fallback:')))) {
    return remapId(config, ids, exists) ?? (key === 'defaultTo' ? null : config);
  }
  return config;
}
