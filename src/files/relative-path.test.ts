import { describe, expect, it } from 'vitest';
import { checkRelativePath } from './relative-path.ts';

describe('checkRelativePath', () => {
  it('accepts plain names inside the folder and normalises "./"', () => {
    expect(checkRelativePath('doc.txt')).toEqual({ ok: true, path: 'doc.txt' });
    expect(checkRelativePath('documents/42-USC-1395ff.md')).toEqual({ ok: true, path: 'documents/42-USC-1395ff.md' });
    expect(checkRelativePath('./a/./b.txt')).toEqual({ ok: true, path: 'a/b.txt' });
    expect(checkRelativePath('..hidden-ish.txt')).toEqual({ ok: true, path: '..hidden-ish.txt' });
    expect(checkRelativePath('données/ünïcode.md').ok).toBe(true);
  });

  it.each([
    ['../secret.txt', '..'],
    ['a/../../secret.txt', '..'],
    ['a/../b.txt', '..'],
    ['..', '..'],
    ['/etc/passwd', 'absolute'],
    ['//server/share/x', 'absolute'],
    ['\\\\server\\share\\x', 'backslash'],
    ['..\\secret.txt', 'backslash'],
    ['a\\..\\..\\b', 'backslash'],
    ['C:/Windows/win.ini', 'drive letter'],
    ['c:secret', 'drive letter'],
    ['file:///etc/passwd', ':'],
    ['doc.txt:stream', ':'],
    ['~/.ssh/id_rsa', '~'],
    ['doc.txt\u0000.md', 'NUL'],
    ['doc\u001b[2J.txt', 'control'],
    ['doc\u0085.txt', 'control'],
    ['.. /x', 'dot or space'],
    ['.../x', 'dot or space'],
    ['a/b. ', 'dot or space'],
    ['a//b', 'empty folder'],
    ['a/', 'folder'],
    ['.', 'folder itself'],
    ['', 'empty'],
    ['x'.repeat(2000), 'longer'],
  ])('refuses %j (%s)', (file, reason) => {
    const check = checkRelativePath(file);
    expect(check.ok).toBe(false);
    expect(!check.ok && check.reason).toContain(reason);
  });

  it('refuses what is not a string', () => {
    for (const value of [null, 1, {}, ['a'], undefined]) expect(checkRelativePath(value)).toEqual({ ok: false, reason: 'it is not a string' });
  });
});
