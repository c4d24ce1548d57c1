import { strongEtag, taggedBody, type TaggedBody } from "./response";

/**
 * The last sizeable body each URL was answered with, as the bytes it is sent
 * as, and their tag: when the endpoint makes the same text again, as it does
 * until the data under it changes, the bytes and the tag are reused rather
 * than made again. Not an answer cache: the endpoint still runs, and its text
 * is encoded into one scratch buffer and compared with the kept bytes in full
 * (some 25 µs for 200 KB, where a fresh Buffer and its SHA-1 took some 200:
 * docs/benchmarks-api.md, sessions 16 and 18). A changed text is tagged as
 * before and replaces the URL's entry. Only bytes are kept, outside V8's heap,
 * so an entry is no string the collector has to carry or promote. Bounded in
 * bytes held, oldest out first: the default holds 50 URLs of a day of minute
 * candles (205 KB each, as bench:api asks them in turn), where a bound that
 * held 19 of them made every request a miss.
 */
export class BodyTagMemo {
  private readonly entries = new Map<string, { body: Buffer; etag: string }>();
  private held = 0;
  /** Where a text is encoded to be compared: grown to the largest body kept, never shrunk. */
  private scratch = Buffer.alloc(0);

  constructor(
    /** Below this many characters a body is tagged afresh and sent as text: its SHA-1 costs about what the look-up does. */
    private readonly minChars = 8 * 1024,
    /** Bytes held in all. */
    private readonly maxHeld = 16 * 1024 * 1024,
  ) {}

  /** The body as it is sent and its tag, reused when `key`'s last body was this same text. */
  tag(key: string, text: string): TaggedBody {
    if (text.length < this.minChars) return taggedBody(text);
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      this.entries.delete(key); // re-inserted last: the oldest go first when full
      if (this.encodesTo(text, entry.body)) {
        this.entries.set(key, entry);
        return entry;
      }
      this.held -= entry.body.length;
    }
    const body = Buffer.from(text, "utf8");
    const tagged = { body, etag: strongEtag(body) };
    if (body.length > this.maxHeld / 8) return tagged; // one huge body would push out all the others
    this.entries.set(key, tagged);
    this.held += body.length;
    for (const [oldest, { body: gone }] of this.entries) {
      if (this.held <= this.maxHeld) break;
      this.entries.delete(oldest);
      this.held -= gone.length;
    }
    return tagged;
  }

  /** Whether `text`'s UTF-8 is exactly `bytes`, without a Buffer made for it. */
  private encodesTo(text: string, bytes: Buffer): boolean {
    if (text.length > bytes.length) return false; // a UTF-16 unit is at least one byte
    // Room for 4 bytes more than `bytes`: a longer encoding writes past them (no character takes more than 4),
    // so a count equal to bytes.length is the whole text.
    if (this.scratch.length < bytes.length + 4) this.scratch = Buffer.allocUnsafe(bytes.length + 4);
    const written = this.scratch.write(text, 0, bytes.length + 4, "utf8");
    return written === bytes.length && bytes.compare(this.scratch, 0, written, 0, written) === 0;
  }
}
