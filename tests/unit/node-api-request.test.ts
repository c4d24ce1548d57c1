import { EventEmitter } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { apiRequestOf } from "../../web/http/node-writer";

// The launcher's view of a /v1 request (web/http/node-writer.ts). Its abort
// signal is a getter; as an own accessor of each request's object (an object
// literal's `get signal()`), V8 kept every request's objects alive through
// the young generation's collections until a full one (session 27).

function request(url = "/v1/fills?limit=5") {
  const req = Object.assign(new EventEmitter(), { method: "GET", headers: { "if-none-match": '"a"', "x-multi": ["b", "c"] } }) as unknown as IncomingMessage;
  const res = new EventEmitter() as unknown as ServerResponse;
  return { req, res, api: apiRequestOf(req, res, new URL(url, "http://localhost"), { pda: "x" }) };
}

describe("the launcher's ApiRequest", () => {
  it("carries the method, URL, params and headers (repeats joined as fetch joins them)", () => {
    const { api } = request();
    expect(api.method).toBe("GET");
    expect(api.url.searchParams.get("limit")).toBe("5");
    expect(api.params).toEqual({ pda: "x" });
    expect(api.headers.get("if-none-match")).toBe('"a"');
    expect(api.headers.get("x-multi")).toBe("b, c");
    expect(api.headers.get("absent")).toBeNull();
  });

  it("has no accessor of its own: the signal's getter is shared on the prototype", () => {
    const { api } = request();
    const own = Object.values(Object.getOwnPropertyDescriptors(api));
    expect(own.some((d) => d.get !== undefined || d.set !== undefined)).toBe(false);
    expect(Object.getOwnPropertyDescriptor(Object.getPrototypeOf(api), "signal")?.get).toBeTypeOf("function");
  });

  it("makes the abort signal only when asked, once, aborted when the response closes", () => {
    const { res, api } = request();
    expect(res.listenerCount("close")).toBe(0);
    const signal = api.signal;
    expect(api.signal).toBe(signal);
    expect(res.listenerCount("close")).toBe(1);
    expect(signal.aborted).toBe(false);
    res.emit("close");
    expect(signal.aborted).toBe(true);
  });
});
