/** `--name value` or `--name=value` from a bench script's command line; undefined when absent. */
export function benchOption(argv: readonly string[], name: string): string | undefined {
  const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  const a = argv[i] as string;
  return a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[i + 1];
}
