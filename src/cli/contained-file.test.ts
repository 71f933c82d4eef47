import { mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readContainedFile } from './contained-file.ts';
import { main } from './main.ts';

async function folders() {
  const root = await mkdtemp(join(tmpdir(), 'seamscope-contained-'));
  const chains = join(root, 'chains');
  await mkdir(join(chains, 'docs'), { recursive: true });
  await writeFile(join(root, 'secret.txt'), 'SECRET-CANARY');
  await writeFile(join(chains, 'docs', 'doc.txt'), 'inside');
  return { root, chains, chainPath: join(chains, 'a.chain.json') };
}

describe('readContainedFile', () => {
  it('reads a file inside the naming file\'s folder, also through a link that stays inside', async () => {
    const { chains, chainPath } = await folders();
    expect(await readContainedFile(chainPath, 'meta.inputFiles.doc', 'docs/doc.txt')).toBe('inside');
    await symlink(join(chains, 'docs', 'doc.txt'), join(chains, 'alias.txt'));
    expect(await readContainedFile(chainPath, 'meta.inputFiles.doc', './alias.txt')).toBe('inside');
  });

  it('refuses links out of the folder, to a file or through a linked folder', async () => {
    const { root, chains, chainPath } = await folders();
    await symlink(join(root, 'secret.txt'), join(chains, 'link.txt'));
    await symlink(root, join(chains, 'up'));
    await symlink('../secret.txt', join(chains, 'relative-link.txt'));
    for (const file of ['link.txt', 'up/secret.txt', 'relative-link.txt']) {
      await expect(readContainedFile(chainPath, 'meta.inputFiles.doc', file)).rejects.toThrow(`${chainPath}: meta.inputFiles.doc names "${file}", which is a link that points outside the folder`);
    }
  });

  it('refuses names out of the folder before touching the disk', async () => {
    const { root, chainPath } = await folders();
    for (const file of ['../secret.txt', join(root, 'secret.txt'), 'docs/../../secret.txt', '..\\secret.txt', 'C:/secret.txt', 'doc\u0000.txt', 42]) {
      await expect(readContainedFile(chainPath, 'meta.inputFiles.doc', file)).rejects.toThrow(/names .*, which is refused: /);
    }
  });

  it('refuses folders and missing files with the reason', async () => {
    const { chainPath } = await folders();
    await expect(readContainedFile(chainPath, 'x', 'docs')).rejects.toThrow('is not a regular file');
    await expect(readContainedFile(chainPath, 'x', 'missing.txt')).rejects.toThrow('cannot be read (ENOENT)');
  });
});

describe('seamscope run with hostile file names', () => {
  const chain = (inputFiles: Record<string, unknown>) => JSON.stringify({
    format: 'seamscope.chain', version: 1, id: 'c', name: 'c', meta: { inputFiles },
    inputs: [{ name: 'doc', schema: { type: 'string' } }],
    steps: [{ id: 'out', kind: 'output', name: 'Out', config: { bindings: { value: 'inputs.doc' } } }],
  });
  const capture = () => {
    const out: string[] = [];
    const err: string[] = [];
    return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t), env: {} }, out, err };
  };

  it('refuses meta.inputFiles naming a link out, naming the chain and the entry, and prints no secret', async () => {
    const { root, chains, chainPath } = await folders();
    await symlink(join(root, 'secret.txt'), join(chains, 'link.txt'));
    await writeFile(chainPath, chain({ doc: 'link.txt' }));
    const { io, out, err } = capture();
    expect(await main(['run', chainPath, '--out', join(root, 'r.json')], io)).toBe(1);
    expect(err.join('\n')).toContain(`${chainPath}: $.meta.inputFiles.doc names "link.txt", which is a link that points outside the folder`);
    expect([...out, ...err].join('\n')).not.toContain('SECRET-CANARY');
  });

  it('refuses an absolute meta.inputFiles at validate, with its path', async () => {
    const { root, chainPath } = await folders();
    await writeFile(chainPath, chain({ doc: join(root, 'secret.txt') }));
    const { io, err } = capture();
    expect(await main(['validate', chainPath], io)).toBe(1);
    expect(err.join('\n')).toContain('$.meta.inputFiles.doc');
    expect(err.join('\n')).toContain('absolute path');
  });

  it('contains {"$file"} values of an inputs file in that file\'s folder', async () => {
    const { root, chains, chainPath } = await folders();
    await writeFile(chainPath, chain({}));
    await writeFile(join(chains, 'inputs.json'), JSON.stringify({ doc: { $file: '../secret.txt' } }));
    const refused = capture();
    expect(await main(['run', chainPath, '--inputs', join(chains, 'inputs.json'), '--out', join(root, 'r.json')], refused.io)).toBe(1);
    expect(refused.err.join('\n')).toContain('$.doc["$file"] names "../secret.txt", which is refused');
    await writeFile(join(chains, 'inputs.json'), JSON.stringify({ doc: { $file: 'docs/doc.txt' } }));
    const allowed = capture();
    expect(await main(['run', chainPath, '--inputs', join(chains, 'inputs.json'), '--out', join(root, 'r.json')], allowed.io)).toBe(0);
    expect(allowed.out.join('\n')).toContain('inside');
    expect(await readFile(join(root, 'secret.txt'), 'utf8')).toBe('SECRET-CANARY');
  });

  it('refuses an inputs file with a duplicate key or an overflowing number, with the path', async () => {
    const { root, chains, chainPath } = await folders();
    await writeFile(chainPath, chain({}));
    await writeFile(join(chains, 'inputs.json'), '{"doc": "a", "doc": "b"}');
    const dup = capture();
    expect(await main(['run', chainPath, '--inputs', join(chains, 'inputs.json'), '--out', join(root, 'r.json')], dup.io)).toBe(1);
    expect(dup.err.join('\n')).toContain('$.doc  the key "doc" appears twice');
  });
});
