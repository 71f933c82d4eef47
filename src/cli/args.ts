/** A small argv parser: positionals, `--name value` / `--flag` options and repeatable options. */
export interface ParsedArgs {
  positionals: string[];
  options: Record<string, string | true>;
  /** Every value of each repeatable option (`--allow-webhook a --allow-webhook b`), in order. */
  lists: Record<string, string[]>;
}

export function parseArgs(argv: readonly string[], flags: readonly string[] = [], repeatable: readonly string[] = []): ParsedArgs {
  const positionals: string[] = [];
  const options: Record<string, string | true> = {};
  const lists: Record<string, string[]> = Object.fromEntries(repeatable.map((name) => [name, []]));
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (inline !== undefined) options[name] = inline;
    else if (flags.includes(name)) options[name] = true;
    else {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) throw new Error(`--${name} needs a value`);
      options[name] = value;
      i++;
    }
    const value = options[name];
    if (repeatable.includes(name) && typeof value === 'string') lists[name]?.push(value);
  }
  return { positionals, options, lists };
}
