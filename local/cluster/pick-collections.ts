import type { Prng } from "./prng";

/** A set with O(1) add, delete and uniform random pick. */
export class PickSet {
  private readonly items: string[] = [];
  private readonly index = new Map<string, number>();
  get size(): number {
    return this.items.length;
  }
  has(item: string): boolean {
    return this.index.has(item);
  }
  add(item: string): void {
    if (this.index.has(item)) return;
    this.index.set(item, this.items.length);
    this.items.push(item);
  }
  delete(item: string): void {
    const i = this.index.get(item);
    if (i === undefined) return;
    const last = this.items.pop() as string;
    if (last !== item) {
      this.items[i] = last;
      this.index.set(last, i);
    }
    this.index.delete(item);
  }
  pick(prng: Prng): string | undefined {
    return this.items.length === 0 ? undefined : this.items[prng.int(this.items.length)];
  }
  clear(): void {
    this.items.length = 0;
    this.index.clear();
  }
}

/** A binary min-heap of offers by expiry; entries go stale when the offer leaves the active set. */
export class ExpiryHeap {
  private readonly heap: Array<[bigint, string]> = [];
  push(expiresAt: bigint, offer: string): void {
    const h = this.heap;
    h.push([expiresAt, offer]);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (h[parent]![0] <= h[i]![0]) break;
      [h[parent], h[i]] = [h[i]!, h[parent]!];
      i = parent;
    }
  }
  peek(): [bigint, string] | undefined {
    return this.heap[0];
  }
  pop(): [bigint, string] | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && h[l]![0] < h[m]![0]) m = l;
        if (r < h.length && h[r]![0] < h[m]![0]) m = r;
        if (m === i) break;
        [h[m], h[i]] = [h[i]!, h[m]!];
        i = m;
      }
    }
    return top;
  }
  clear(): void {
    this.heap.length = 0;
  }
}
