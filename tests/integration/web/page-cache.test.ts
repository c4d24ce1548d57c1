import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { allowBackForwardCache, isPageDocumentRequest, PAGE_CACHE_CONTROL } from "../../../web/http/page-cache";

// A page document leaves `no-store` behind (so Back restores it from the
// back/forward cache); every other header, and any other Cache-Control, stays.

async function answer(handle: Parameters<typeof createServer>[1], headers: Record<string, string> = {}): Promise<Response> {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    return await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { headers });
  } finally {
    server.close();
  }
}

describe("page documents and the back/forward cache", () => {
  it("rewrites no-store set through setHeader or writeHead, and leaves other values", async () => {
    const viaSet = await answer((_req, res) => {
      allowBackForwardCache(res);
      res.setHeader("Cache-Control", "private, no-cache, no-store, max-age=0, must-revalidate");
      res.setHeader("x-other", "no-store");
      res.end("ok");
    });
    expect(viaSet.headers.get("cache-control")).toBe(PAGE_CACHE_CONTROL);
    expect(viaSet.headers.get("x-other")).toBe("no-store");
    const viaHead = await answer((_req, res) => {
      allowBackForwardCache(res);
      res.writeHead(200, { "cache-control": "no-store" }).end("ok");
    });
    expect(viaHead.headers.get("cache-control")).toBe(PAGE_CACHE_CONTROL);
    const kept = await answer((_req, res) => {
      allowBackForwardCache(res);
      res.writeHead(200, { "Cache-Control": "public, max-age=300" }).end("ok");
    });
    expect(kept.headers.get("cache-control")).toBe("public, max-age=300");
  });

  it("applies to a browser's HTML navigation only, not to RSC payloads or API calls", () => {
    const req = (headers: Record<string, string>, method = "GET") => ({ method, headers }) as unknown as IncomingMessage;
    expect(isPageDocumentRequest(req({ accept: "text/html,application/xhtml+xml" }))).toBe(true);
    expect(isPageDocumentRequest(req({ accept: "text/html", rsc: "1" }))).toBe(false);
    expect(isPageDocumentRequest(req({ accept: "application/json" }))).toBe(false);
    expect(isPageDocumentRequest(req({ accept: "text/html" }, "POST"))).toBe(false);
  });
});
