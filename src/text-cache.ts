/**
 * A memo keyed by text, least recently used out first, bounded by how many texts it holds and
 * by their characters in all. Used where the same long text comes back on every call of an eval
 * (the document in each item's prompt, a source checked at every boundary): its token count, its
 * extracted facts, its sentences' stems. A text longer than the character bound is never kept.
 *
 * @example
 * const counts = new TextCache<number>({ texts: 256, chars: 32_000_000 });
 * const tokens = counts.get(doc) ?? counts.set(doc, count(doc));
 */
export class TextCache<V> {
  private readonly known = new Map<string, V>();
  private chars = 0;

  constructor(private readonly bound: { texts: number; chars: number }) {}

  get(text: string): V | undefined {
    const value = this.known.get(text);
    if (value !== undefined) {
      this.known.delete(text);
      this.known.set(text, value);
    }
    return value;
  }

  /** Keeps `value` for `text` (unless the text alone is over the bound) and returns it. */
  set(text: string, value: V): V {
    if (text.length > this.bound.chars || this.known.has(text)) return value;
    this.known.set(text, value);
    this.chars += text.length;
    while (this.known.size > this.bound.texts || this.chars > this.bound.chars) {
      const oldest = this.known.keys().next().value as string;
      this.known.delete(oldest);
      this.chars -= oldest.length;
    }
    return value;
  }
}
