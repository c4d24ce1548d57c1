import { taggedBody, type TaggedBody } from "./response";

/**
 * The last sizeable body each URL was answered with, and its tag (and, for a
 * large one, the bytes it is sent as): when the endpoint makes the same text
 * again, as it does until the data under it changes, the tag and the bytes
 * are reused rather than made again. Not an answer cache: the endpoint still
 * runs and its text is compared in full (a few µs for 100 KB, where the
 * SHA-1 and the UTF-8 copy took some 110 µs: /v1/coingecko/tickers,
 * docs/benchmarks-api.md, session 16). A changed text is tagged as before
 * and replaces the URL's entry. Bounded in characters held, oldest out first.
 */
export class BodyTagMemo {
  private readonly entries = new Map<string, { text: string; tagged: TaggedBody; size: number }>();
  private held = 0;

  constructor(
    /** Below this many characters a body is tagged afresh: its SHA-1 costs about what the look-up does. */
    private readonly minChars = 8 * 1024,
    /** Characters held (text and bytes counted apiece), some 2 bytes each at most. */
    private readonly maxHeld = 8 * 1024 * 1024,
  ) {}

  /** The body as it is sent and its tag, reused when `key`'s last body was this same text. */
  tag(key: string, text: string): TaggedBody {
    if (text.length < this.minChars) return taggedBody(text);
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      this.entries.delete(key); // re-inserted last: the oldest go first when full
      if (entry.text === text) {
        this.entries.set(key, entry);
        return entry.tagged;
      }
      this.held -= entry.size;
    }
    const tagged = taggedBody(text);
    const size = text.length + (typeof tagged.body === "string" ? 0 : tagged.body.length);
    if (size > this.maxHeld / 8) return tagged; // one huge body would push out all the others
    this.entries.set(key, { text, tagged, size });
    this.held += size;
    for (const [oldest, { size: gone }] of this.entries) {
      if (this.held <= this.maxHeld) break;
      this.entries.delete(oldest);
      this.held -= gone;
    }
    return tagged;
  }
}
