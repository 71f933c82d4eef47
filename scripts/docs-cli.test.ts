import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.ts';
import { cliReference, commandsIn, flagsIn } from './cli-reference.ts';

/**
 * The docs check: docs/cli.md is what `npm run docs:cli` writes today, and it names every command
 * and every flag the CLI's usage names. After changing the CLI's usage text, run `npm run docs:cli`.
 */
const written = readFileSync(join(import.meta.dirname, '..', 'docs', 'cli.md'), 'utf8');

async function usage(argv: string[]): Promise<string> {
  const lines: string[] = [];
  await main(argv, { out: (t) => void lines.push(t), err: (t) => void lines.push(t), env: {} });
  return lines.join('\n');
}

describe('docs/cli.md', () => {
  it('names every command and every flag in the CLI usage', async () => {
    const overview = await usage(['help']);
    const commands = commandsIn(overview);
    expect(commands).toContain('eval');
    const detailed = await Promise.all([...overview.matchAll(/\(([a-z-]+) --help for all\)/g)].map((m) => usage([m[1] ?? '', '--help'])));
    const flags = flagsIn([overview, ...detailed].join('\n'));
    expect(flags).toContain('--dataset');
    const missing = [
      ...commands.filter((c) => !written.includes(`## \`seamscope ${c}\``)).map((c) => `command ${c}`),
      ...flags.filter((f) => !new RegExp(`(?<![\\w-])${f}(?![\\w-])`).test(written)).map((f) => `flag ${f}`),
    ];
    expect(missing, 'missing from docs/cli.md: run `npm run docs:cli`').toEqual([]);
  });

  it('is what `npm run docs:cli` writes from the current CLI', async () => {
    expect(written === (await cliReference()), 'docs/cli.md is stale: run `npm run docs:cli`').toBe(true);
  });
});
