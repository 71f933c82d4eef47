/**
 * The steps the scheduler may be able to decide, taken in plan order. A binary heap on each
 * step's plan index: adding and taking one costs log n, so a fan-out whose thousands of readers
 * become ready at once is not sorted again after every step that settles (that was n² log n).
 * An id added twice is held once.
 */
export class ReadyQueue {
  private readonly heap: number[] = [];
  private readonly held = new Set<string>();

  constructor(private readonly ids: readonly string[], private readonly indexOf: ReadonlyMap<string, number>) {}

  get size(): number {
    return this.heap.length;
  }

  add(id: string): void {
    const index = this.indexOf.get(id);
    if (index === undefined || this.held.has(id)) return;
    this.held.add(id);
    const heap = this.heap;
    heap.push(index);
    for (let i = heap.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if ((heap[parent] as number) <= index) break;
      heap[i] = heap[parent] as number;
      heap[parent] = index;
      i = parent;
    }
  }

  /** The first id in plan order, left in the queue. */
  peek(): string | undefined {
    const top = this.heap[0];
    return top === undefined ? undefined : this.ids[top];
  }

  /** Takes the first id in plan order out. */
  pop(): string | undefined {
    const heap = this.heap;
    const top = heap[0];
    if (top === undefined) return undefined;
    const last = heap.pop() as number;
    if (heap.length > 0) {
      heap[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let least = i;
        if (l < heap.length && (heap[l] as number) < (heap[least] as number)) least = l;
        if (r < heap.length && (heap[r] as number) < (heap[least] as number)) least = r;
        if (least === i) break;
        [heap[i], heap[least]] = [heap[least] as number, heap[i] as number];
        i = least;
      }
    }
    const id = this.ids[top] as string;
    this.held.delete(id);
    return id;
  }

  /** Every id held, in no particular order. */
  values(): IterableIterator<string> {
    return this.held.values();
  }
}
