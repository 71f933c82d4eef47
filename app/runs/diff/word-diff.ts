import { diffWordsWithSpace } from 'diff';

/** A run of text on one side of a two-run comparison: common to both, only in A, or only in B. */
export interface WordSpan {
  text: string;
  kind: 'same' | 'removed' | 'added';
}

export interface WordDiff {
  /** A's text as spans: common and removed. */
  a: WordSpan[];
  /** B's text as spans: common and added. */
  b: WordSpan[];
  /** False when the texts were too far apart (or too long) to diff in time; each side is then one span. */
  aligned: boolean;
}

// Model outputs can be long; past this many edits (or this long) a word diff stops reading as one.
const MAX_EDITS = 2000;
const TIMEOUT_MS = 150;

/**
 * Word-by-word changes from A to B (whitespace and newlines are their own tokens, so the text
 * keeps its layout). Pure; runs when the diff view renders a changed step.
 */
export function diffWordsOf(a: string, b: string): WordDiff {
  const changes = diffWordsWithSpace(a, b, { maxEditLength: MAX_EDITS, timeout: TIMEOUT_MS });
  if (!changes) return { a: [{ text: a, kind: 'removed' }], b: [{ text: b, kind: 'added' }], aligned: false };
  const left: WordSpan[] = [];
  const right: WordSpan[] = [];
  for (const c of changes) {
    if (c.added) right.push({ text: c.value, kind: 'added' });
    else if (c.removed) left.push({ text: c.value, kind: 'removed' });
    else {
      left.push({ text: c.value, kind: 'same' });
      right.push({ text: c.value, kind: 'same' });
    }
  }
  return { a: left, b: right, aligned: true };
}
