import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { routedChain } from '../testing/chain-fixtures.ts';
import { main } from './main.ts';
import { terminalBlock, terminalLine } from './terminal-text.ts';

/** Every character a terminal could obey or a reader could be fooled by, one per entry. */
const unsafe = [
  ...Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)), '\u007f',
  ...Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(0x80 + i)),
  '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c', '\u2028', '\u2029',
];
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const unsafePattern = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u2028\u2029]/;

describe('terminalLine and terminalBlock', () => {
  it('escape every control, bidi and separator character visibly', () => {
    for (const c of unsafe) {
      const escaped = terminalLine(`a${c}b`);
      expect(escaped).toBe(`a\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}b`);
    }
    expect(terminalLine('clear\u001b[2J\u001b]0;title\u0007')).toBe('clear\\u001b[2J\\u001b]0;title\\u0007');
    expect(terminalLine('evil\u202etxt.exe')).toBe('evil\\u202etxt.exe');
  });

  it('keep ordinary text, including non-Latin scripts and emoji, unchanged', () => {
    for (const text of ['plain', 'é日本語مرحبا😀', 'a\\u001b stays as typed', 'tabs	inside']) expect(terminalBlock(text)).toBe(text);
  });

  it('keep line feeds and tabs in blocks, but not in lines', () => {
    expect(terminalBlock('a\nb\tc\r\u001b')).toBe('a\nb\tc\\u000d\\u001b');
    expect(terminalLine('a\nb\tc')).toBe('a\\u000ab\\u0009c');
  });

  it('leave JSON valid JSON with the same value', () => {
    const value = { name: 'x\u001b[2J\u202e\u0085\u2028y', list: ['\u200f'] };
    expect(JSON.parse(terminalBlock(JSON.stringify(value, null, 2)))).toEqual(value);
  });
});

describe('the CLI escapes what files, traces and models gave it', () => {
  const hostile = 'Bad\u001b[2J\u001b[H\u202eeman\u2066\r\nforged line';

  async function hostileChainFile() {
    const dir = await mkdtemp(join(tmpdir(), 'seamscope-term-'));
    const chain = routedChain();
    chain.name = hostile;
    chain.inputs[0] = { ...chain.inputs[0]!, example: `ticket ${hostile}` };
    const path = join(dir, `chain\u001b[31m.chain.json`);
    await writeFile(path, JSON.stringify(chain));
    return { dir, chain, path };
  }

  const capture = () => {
    const lines: string[] = [];
    return { lines, io: { out: (t: string) => lines.push(t), err: (t: string) => lines.push(t), env: {} } };
  };

  it('in validate, run, inspect and export output', async () => {
    const { dir, chain, path } = await hostileChainFile();
    const all: string[] = [];
    for (const argv of [
      ['validate', path],
      ['run', path, '--out', join(dir, 'r.run.json')],
      ['inspect', join(dir, 'r.run.json')],
      ['inspect', join(dir, 'r.run.json'), '--json'],
      ['export', path, '--lang', 'ts', '--out', join(dir, 'ts')],
    ]) {
      const { lines, io } = capture();
      await main(argv, io);
      expect(lines.length, argv.join(' ')).toBeGreaterThan(0);
      all.push(...lines);
    }
    const text = all.join('\n');
    expect(text).not.toMatch(unsafePattern);
    expect(text).toContain('Bad\\u001b[2J\\u001b[H\\u202eeman\\u2066\\u000d\\u000aforged line');
    // What is stored keeps the value exactly; only the terminal sees escapes.
    expect(JSON.parse(await readFile(join(dir, 'r.run.json'), 'utf8')).run.chain.name).toBe(chain.name);
  });

  it('in problems: a route target and a message that carry escapes', async () => {
    const { dir } = await hostileChainFile();
    const chain = routedChain();
    (chain.steps[1]!.config as { defaultTo: string }).defaultTo = 'nowhere\u001b[2J\u202e';
    await writeFile(join(dir, 'bad.chain.json'), JSON.stringify(chain));
    const { lines, io } = capture();
    expect(await main(['validate', join(dir, 'bad.chain.json')], io)).toBe(1);
    expect(lines.join('\n')).not.toMatch(unsafePattern);
    expect(lines.join('\n')).toContain('nowhere\\u001b[2J\\u202e');
  });

  it('in a trace whose step ids, statuses and texts were edited by hand', async () => {
    const { dir, path } = await hostileChainFile();
    await main(['run', path, '--out', join(dir, 'r.run.json')], capture().io);
    const file = JSON.parse(await readFile(join(dir, 'r.run.json'), 'utf8'));
    file.run.id = `id${hostile}`;
    file.run.status = `st${hostile}`;
    await writeFile(join(dir, 'edited.run.json'), JSON.stringify(file).replaceAll('classify', 'clas\\u001b[2Jsify'));
    const { lines, io } = capture();
    await main(['inspect', join(dir, 'edited.run.json')], io);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toMatch(unsafePattern);
  });
});
