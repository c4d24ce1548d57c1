import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { drainedOrClosed } from "../../web/http/node-writer";

// A streamed answer (the event stream, a CSV export) waits for the socket to
// drain each time it is full: a long export waits thousands of times on one
// response, and each wait must leave no listener behind.

describe("drainedOrClosed", () => {
  it("resolves on drain and leaves neither listener behind, however many waits", async () => {
    const res = new EventEmitter() as unknown as ServerResponse;
    for (let i = 0; i < 50; i++) {
      const waited = drainedOrClosed(res);
      res.emit("drain");
      await waited;
    }
    expect(res.listenerCount("drain")).toBe(0);
    expect(res.listenerCount("close")).toBe(0);
  });

  it("resolves when the client goes instead", async () => {
    const res = new EventEmitter() as unknown as ServerResponse;
    const waited = drainedOrClosed(res);
    res.emit("close");
    await waited;
    expect(res.listenerCount("drain")).toBe(0);
  });
});
