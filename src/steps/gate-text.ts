/** Whitespace-normalised, so line wrapping in the source never fails a true quote. */
export function normaliseForContainment(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
