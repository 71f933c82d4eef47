import { describe, expect, it } from 'vitest';
import { parseArgs } from './args.ts';
import { main } from './main.ts';

const table = { out: 'string', json: 'flag', 'allow-webhook': 'list' } as const;

describe('argument parsing', () => {
  it('takes positionals anywhere, values with a space or =, flags and repeated lists', () => {
    expect(parseArgs(['a.json', '--out', 'r.json', '--json', '--allow-webhook', 'https://a.example', 'b', '--allow-webhook=https://b.example'], table, 'run')).toEqual({
      positionals: ['a.json', 'b'],
      options: { out: 'r.json', json: true, 'allow-webhook': 'https://b.example' },
      lists: { 'allow-webhook': ['https://a.example', 'https://b.example'] },
    });
    expect(parseArgs(['--out=a=b', '--', '--json'], table, 'run')).toEqual({ positionals: ['--json'], options: { out: 'a=b' }, lists: { 'allow-webhook': [] } });
  });

  it('refuses what the command does not take, naming the option', () => {
    expect(() => parseArgs(['x', '--ot', 'r.json'], table, 'run')).toThrow('unknown option --ot for "seamscope run" (it takes --out, --json, --allow-webhook)');
    expect(() => parseArgs(['-o'], table, 'run')).toThrow('unknown option -o for "seamscope run"');
    expect(() => parseArgs(['x', '--json'], {}, 'validate')).toThrow('unknown option --json for "seamscope validate" (it takes no options)');
    expect(() => parseArgs(['--__proto__', 'x'], table, 'run')).toThrow('unknown option --__proto__');
  });

  it('says which option is missing its value, and which takes none', () => {
    expect(() => parseArgs(['x', '--out'], table, 'run')).toThrow(/^--out needs a value$/);
    expect(() => parseArgs(['--out', '--json'], table, 'run')).toThrow(/^--out needs a value$/);
    expect(() => parseArgs(['--out', '-r'], table, 'run')).toThrow('--out needs a value (got "-r"; a value that starts with "-" is written --out=-r)');
    expect(parseArgs(['--out=-r'], table, 'run').options.out).toBe('-r');
    expect(() => parseArgs(['--json=yes'], table, 'run')).toThrow(/^--json takes no value$/);
  });

  it('ends the command with exit 1 and the error, before anything runs', async () => {
    const err: string[] = [];
    const io = { out: () => undefined, err: (t: string) => err.push(t), env: {} };
    const chain = new URL('../../public/demo/summarise-then-answer.chain.json', import.meta.url).pathname;
    expect(await main(['run', chain, '--dry-run'], io)).toBe(1);
    expect(await main(['inspect', 'x.run.json', '--limit'], io)).toBe(1);
    expect(err).toEqual([expect.stringMatching(/^Error: unknown option --dry-run for "seamscope run" \(it takes --inputs, /), 'Error: --limit needs a value']);
  });
});
