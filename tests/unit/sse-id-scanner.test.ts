import { createParser } from "eventsource-parser";
import { describe, expect, it } from "vitest";
import { SseIdScanner } from "../../bench/sse-ids";

// bench:scale's stream readers find event ids with a byte scanner of their
// own (bench/sse-ids.ts): it must agree with a real parser, whatever the
// chunking, line endings, comments and fields between the events.

const encoder = new TextEncoder();

function scan(chunks: string[]): number[] {
  const scanner = new SseIdScanner();
  const ids: number[] = [];
  for (const chunk of chunks) scanner.feed(encoder.encode(chunk), (id) => ids.push(id));
  return ids;
}

function parsed(text: string): number[] {
  const ids: number[] = [];
  const parser = createParser({ onEvent: (e) => e.id && ids.push(Number(e.id)) });
  parser.feed(text);
  return ids;
}

const STREAM = [
  "retry: 2000\n\n",
  ":\n\n",
  'id: 41\nevent: fill\ndata: {"id":"x: 1","note":"id: 99"}\n\n',
  "id: 42\nevent: offer\ndata: {}\n\n",
  ": a comment with id: 7\n\n",
  "id:43\r\nevent: candle\r\ndata: {}\r\n\r\n",
  "id: 9007199254740\revent: revoke\rdata: {}\r\r",
  ":\n\n",
].join("");

describe("the bench's SSE id scanner", () => {
  it("finds each event's id as eventsource-parser does, comments and data lines aside", () => {
    expect(scan([STREAM])).toEqual(parsed(STREAM));
    expect(scan([STREAM])).toEqual([41, 42, 43, 9007199254740]);
  });

  it("gives the same ids however the bytes are split, down to one byte per chunk", () => {
    const whole = scan([STREAM]);
    for (const size of [1, 2, 3, 5, 7, 64]) {
      const chunks: string[] = [];
      for (let i = 0; i < STREAM.length; i += size) chunks.push(STREAM.slice(i, i + size));
      expect(scan(chunks)).toEqual(whole);
    }
  });

  it("reports an event only at its blank line, and none without an id", () => {
    expect(scan(["id: 5\nevent: fill\ndata: {}\n"])).toEqual([]);
    expect(scan(["id: 5\nevent: fill\ndata: {}\n", "\n"])).toEqual([5]);
    expect(scan(["event: fill\ndata: {}\n\n", "id: \ndata: {}\n\n"])).toEqual([]);
  });
});
