import { parseArgs as parseArgv, type ParseArgsConfig } from 'node:util';

/**
 * The options one command takes, by name (without `--`): a `string` takes a value
 * (`--out run.json` or `--out=run.json`), a `flag` takes none, a `list` is a string that may
 * be repeated (`--allow-webhook a --allow-webhook b`).
 */
export type OptionTable = Readonly<Record<string, 'string' | 'flag' | 'list'>>;

export interface ParsedArgs {
  positionals: string[];
  /** Each option given: its value (the last one, for a list) or `true` for a flag. */
  options: Record<string, string | true>;
  /** Every value of each list option, in order (empty when it was not given). */
  lists: Record<string, string[]>;
}

/**
 * A command's arguments, parsed strictly by `node:util` parseArgs: positionals anywhere,
 * `--` ends the options, and an option the command does not take, a missing value or a value
 * given to a flag is an error naming the option (main prints it and exits 1).
 *
 * @example
 * parseArgs(['run.json', '--json'], { json: 'flag' }, 'inspect'); // { positionals: ['run.json'], options: { json: true }, lists: {} }
 */
export function parseArgs(argv: readonly string[], table: OptionTable, command: string): ParsedArgs {
  const config: NonNullable<ParseArgsConfig['options']> = {};
  for (const [name, kind] of Object.entries(table)) config[name] = kind === 'flag' ? { type: 'boolean' } : { type: 'string', multiple: kind === 'list' };
  let parsed;
  try {
    parsed = parseArgv({ args: [...argv], options: config, strict: true, allowPositionals: true });
  } catch (error) {
    throw new Error(argumentProblem(argv, table, command) ?? String((error as Error).message).split('\n')[0]);
  }
  const options: Record<string, string | true> = {};
  const lists: Record<string, string[]> = {};
  for (const [name, kind] of Object.entries(table)) {
    const value: unknown = parsed.values[name];
    if (kind === 'list') lists[name] = Array.isArray(value) ? value.map(String) : [];
    if (value === undefined) continue;
    options[name] = Array.isArray(value) ? String(value.at(-1)) : typeof value === 'string' ? value : true;
  }
  return { positionals: parsed.positionals, options, lists };
}

/** Why strict parsing refused `argv`, in words naming the option (the same tokens, read leniently). */
function argumentProblem(argv: readonly string[], table: OptionTable, command: string): string | undefined {
  const { tokens } = parseArgv({ args: [...argv], options: {}, strict: false, allowPositionals: true, tokens: true });
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const kind = Object.hasOwn(table, token.name) ? table[token.name] : undefined;
    if (kind === undefined) {
      const known = Object.keys(table).map((name) => `--${name}`);
      return `unknown option ${token.rawName} for "seamscope ${command}"${known.length ? ` (it takes ${known.join(', ')})` : ' (it takes no options)'}`;
    }
    if (kind === 'flag' && token.inlineValue) return `${token.rawName} takes no value`;
    if (kind === 'flag') continue;
    // Read leniently, a string option's value is only what `=` gave it; the next argument was
    // parsed as a token of its own.
    if (token.inlineValue) continue;
    const next = argv[token.index + 1];
    if (next === undefined || next === '--' || next.startsWith('--')) return `${token.rawName} needs a value`;
    if (next.startsWith('-') && next.length > 1) return `${token.rawName} needs a value (got "${next}"; a value that starts with "-" is written ${token.rawName}=${next})`;
  }
  return undefined;
}
