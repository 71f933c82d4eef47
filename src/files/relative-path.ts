/**
 * The one check on a file name a shared file gives (a chain's `meta.inputFiles`, an inputs
 * file's `{"$file"}`): it must name a file inside the folder the naming file sits in. This is
 * the pure half, the same in the browser and in Node — it looks only at the text, so it cannot
 * see symlinks; the CLI adds a real-path check before it reads anything.
 *
 * The rule is deliberately narrower than what an operating system accepts: forward slashes
 * only, no `..` anywhere (even `a/../b`, which stays inside, is refused: a name that needs it
 * can be written without it), nothing absolute on any platform, no colon (drive letters,
 * Windows alternate streams, URL schemes), and no segment Windows would silently rewrite.
 */

export type RelativePathCheck = { ok: true; path: string } | { ok: false; reason: string };

export const MAX_RELATIVE_PATH_LENGTH = 1024;

/** Every C0 control character, DEL and the C1 range: none belong in a file name. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Whether `file` names a file inside its folder; the normalised form (`./a//b` → `a/b` is not
 * accepted: only a leading `./` and single `.` segments are dropped) or the reason it does not.
 *
 * @example
 * checkRelativePath('documents/contract.txt');  // { ok: true, path: 'documents/contract.txt' }
 * checkRelativePath('../secret.txt');           // { ok: false, reason: 'it climbs out of the folder with ".."' }
 */
export function checkRelativePath(file: unknown): RelativePathCheck {
  if (typeof file !== 'string') return { ok: false, reason: 'it is not a string' };
  if (file.length === 0) return { ok: false, reason: 'it is empty' };
  if (file.length > MAX_RELATIVE_PATH_LENGTH) return { ok: false, reason: `it is longer than ${MAX_RELATIVE_PATH_LENGTH} characters` };
  if (file.includes('\u0000')) return { ok: false, reason: 'it contains a NUL character' };
  if (controlCharacter.test(file)) return { ok: false, reason: 'it contains a control character' };
  if (file.includes('\\')) return { ok: false, reason: 'it contains a backslash (use "/" between folders)' };
  if (file.startsWith('/')) return { ok: false, reason: 'it is an absolute path' };
  if (file.includes(':')) return { ok: false, reason: /^[A-Za-z]:/.test(file) ? 'it starts with a drive letter' : 'it contains ":" (a drive, stream or URL scheme)' };
  if (file.startsWith('~')) return { ok: false, reason: 'it starts with "~" (a home folder)' };
  const segments = file.split('/');
  const kept: string[] = [];
  for (const [i, segment] of segments.entries()) {
    if (segment === '..') return { ok: false, reason: 'it climbs out of the folder with ".."' };
    if (segment === '.') continue;
    if (segment === '') return { ok: false, reason: i === segments.length - 1 ? 'it names a folder, not a file' : 'it has an empty folder name ("//")' };
    // Windows drops trailing dots and spaces, so ".. " or "..." could resolve to "..".
    if (/^[. ]+$/.test(segment) || /[. ]$/.test(segment)) return { ok: false, reason: `the name "${segment}" ends in a dot or space` };
    kept.push(segment);
  }
  if (kept.length === 0) return { ok: false, reason: 'it names the folder itself, not a file' };
  return { ok: true, path: kept.join('/') };
}
