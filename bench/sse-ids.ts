// The least a bench reader of /v1/stream needs from Server-Sent Events: the
// id of each event, when the event is complete (at its blank line). Bytes are
// scanned where they lie, across chunk boundaries, with no string, no decoder
// and nothing allocated per event: a few thousand readers in one thread then
// cost the server's writes, not their own parsing. Comments (heartbeats),
// `event:`, `data:` and `retry:` lines are skipped; `\r\n` and `\r` end lines
// as `\n` does. Ids are numbers (the feed's ids stay far below 2^53).
// The suites read streams with a real parser (tests/helpers/sse.ts); the
// bench runs one such reader beside these as a check (bench/scale-streams.ts).

const LF = 10;
const CR = 13;
const COLON = 58;
const SPACE = 32;
const ZERO = 48;
const NINE = 57;
const I = 105;
const D = 100;

/** Where the scanner stands within the current line. */
const enum At {
  LineStart,
  /** Read `i` at the line's start. */
  I,
  /** Read `id`. */
  Id,
  /** Read `id:`; an optional space, then digits. */
  IdColon,
  Digits,
  /** The rest of a line that is not an id (or an id with a non-digit). */
  Skip,
}

export class SseIdScanner {
  private at = At.LineStart;
  private value = 0;
  private digits = 0;
  /** The id field of the event being read, -1 when it has none yet. */
  private pendingId = -1;
  /** The line just ended on `\r`: a `\n` right after it is the same line end. */
  private afterCr = false;

  /** Scans `chunk`, calling `onEvent(id)` for each event that ends in it. */
  feed(chunk: Uint8Array, onEvent: (id: number) => void): void {
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (byte === LF || byte === CR) {
        if (byte === LF && this.afterCr) {
          this.afterCr = false;
          continue;
        }
        this.afterCr = byte === CR;
        this.endLine(onEvent);
        continue;
      }
      this.afterCr = false;
      switch (this.at) {
        case At.LineStart:
          this.at = byte === I ? At.I : At.Skip;
          break;
        case At.I:
          this.at = byte === D ? At.Id : At.Skip;
          break;
        case At.Id:
          this.at = byte === COLON ? At.IdColon : At.Skip;
          break;
        case At.IdColon:
          this.value = 0;
          this.digits = 0;
          this.at = At.Digits;
          if (byte === SPACE) break;
        // falls through: the first digit, with no space before it
        case At.Digits:
          if (byte >= ZERO && byte <= NINE) {
            this.value = this.value * 10 + (byte - ZERO);
            this.digits++;
          } else this.at = At.Skip;
          break;
        case At.Skip:
          break;
      }
    }
  }

  private endLine(onEvent: (id: number) => void): void {
    const at = this.at;
    this.at = At.LineStart;
    if (at === At.LineStart) {
      // A blank line: the event ends (a comment-only block has no id and is no event here).
      if (this.pendingId >= 0) onEvent(this.pendingId);
      this.pendingId = -1;
    } else if (at === At.Digits && this.digits > 0) {
      this.pendingId = this.value;
    }
  }
}
