/** A small argv parser: positionals and `--name value` / `--flag` options. */
export interface ParsedArgs {
  positionals: string[];
  options: Record<string, string | true>;
}

export function parseArgs(argv: readonly string[], flags: readonly string[] = []): ParsedArgs {
  const positionals: string[] = [];
  const options: Record<string, string | true> = {};
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
  }
  return { positionals, options };
}
