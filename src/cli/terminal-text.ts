/**
 * Text for a terminal. Whatever the CLI prints may hold strings from a chain file, a trace or
 * a model, and a terminal obeys what it is sent: ESC sequences clear the screen, move the
 * cursor, retitle the window or write hyperlinks; a carriage return overprints a line; bidi
 * overrides make `evil.txt` display as `txt.live`. So every such character is shown as a
 * visible `\uXXXX` escape instead of being sent.
 *
 * The escaped set: C0 controls (U+0000–U+001F), DEL, C1 controls (U+0080–U+009F), the bidi
 * embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), the directional marks
 * (U+200E, U+200F, U+061C) and the line/paragraph separators (U+2028, U+2029). The escapes use
 * the JSON spelling, so JSON text stays valid JSON with the same value after escaping.
 */

// Built from code points so this file itself carries none of the characters it escapes.
const ranges: [number, number][] = [[0x00, 0x1f], [0x7f, 0x9f], [0x061c, 0x061c], [0x200e, 0x200f], [0x2028, 0x202e], [0x2066, 0x2069]];
const classBody = ranges.map(([a, b]) => (a === b ? `\\u${hex(a)}` : `\\u${hex(a)}-\\u${hex(b)}`)).join('');
const unsafeAll = new RegExp(`[${classBody}]`, 'g');
/** The same set less line feed and tab, for multi-line blocks the CLI prints as they are. */
const unsafeInBlock = new RegExp(`(?![\\n\\t])[${classBody}]`, 'g');

function hex(code: number): string {
  return code.toString(16).padStart(4, '0');
}

const escapeOne = (c: string) => `\\u${hex(c.charCodeAt(0))}`;

/**
 * One line of terminal text: every control, bidi and line-breaking character escaped,
 * newlines and tabs included, so a value cannot forge a line of its own.
 *
 * @example
 * terminalLine('name\u001b[2J');  // 'name\\u001b[2J'
 */
export function terminalLine(text: string): string {
  return text.replace(unsafeAll, escapeOne);
}

/**
 * A block of terminal text (usage, a multi-line output, pretty JSON): the same escapes, but
 * line feeds and tabs are kept. This is what the CLI's output boundary applies to everything.
 */
export function terminalBlock(text: string): string {
  return text.replace(unsafeInBlock, escapeOne);
}
