/**
 * `text.matchAll(re)` without its copy of `re`: matchAll constructs a new RegExp from the pattern
 * on every call, which costs microseconds for the large alternations of the fact patterns, and
 * fact extraction runs over every intermediate of every item of an eval (mostly short texts,
 * where that copy was most of the work). The same matches in the same order, zero-length ones
 * included. `re` must be global; a use of the same `re` inside the loop is safe (its position is
 * put back before the next match).
 *
 * @example
 * for (const m of matchesOf(/\d+/g, 'a 1 b 22')) console.log(m.index, m[0]); // 2 '1', then 6 '22'
 */
export function* matchesOf(re: RegExp, text: string): Generator<RegExpExecArray, void, undefined> {
  if (!re.global) throw new TypeError(`matchesOf needs a global pattern: /${re.source}/${re.flags}`);
  re.lastIndex = 0;
  try {
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      let next = re.lastIndex;
      // A zero-length match would be found again at the same place: step past it (a whole code point in unicode mode), as matchAll does.
      if (m[0] === '') next += re.unicode && (text.codePointAt(next) ?? 0) > 0xffff ? 2 : 1;
      yield m;
      re.lastIndex = next;
    }
  } finally {
    // A loop left early (break, return, throw) leaves the pattern as it found it: at the start.
    re.lastIndex = 0;
  }
}
