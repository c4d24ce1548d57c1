import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BatchRefusedError, createJsonRpc, jsonRpc, JsonRpcError, lamportsOf, resultOf, waitConfirmed } from "../../../lib/rpc/json-rpc";

// The one JSON-RPC client against a node:http server on the loopback: the
// bytes it sends and how it reads what comes back, answers and refusals alike.

interface Received {
  body: string;
  contentType: string | undefined;
}

type Answer = (body: string) => { status?: number; text: string };

let server: Server;
let url: string;
let received: Received[] = [];
let answer: Answer;

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      received.push({ body, contentType: req.headers["content-type"] });
      const { status = 200, text } = answer(body);
      res.writeHead(status, { "content-type": "application/json" }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  received = [];
});

/** Answers each call of a request (one or a batch) with `result(method, params)`, echoing its id. */
const echoing =
  (result: (method: string, params: unknown[]) => unknown, order: (replies: unknown[]) => unknown[] = (r) => r): Answer =>
  (body) => {
    const parsed = JSON.parse(body) as { id: number; method: string; params: unknown[] } | { id: number; method: string; params: unknown[] }[];
    const reply = (c: { id: number; method: string; params: unknown[] }) => ({ jsonrpc: "2.0", id: c.id, result: result(c.method, c.params) });
    return { text: JSON.stringify(Array.isArray(parsed) ? order(parsed.map(reply)) : reply(parsed)) };
  };

describe("one call", () => {
  it("posts the params as given, as JSON text, and answers the reply", async () => {
    answer = echoing((method, params) => ({ method, params }));
    const rpc = createJsonRpc(url);
    const reply = await rpc.call<{ method: string; params: unknown[] }>("getTransaction", '["5sig",{"encoding":"json"}]');
    expect(received).toEqual([
      { body: '{"jsonrpc":"2.0","id":1,"method":"getTransaction","params":["5sig",{"encoding":"json"}]}', contentType: "application/json" },
    ]);
    expect(resultOf(reply, "getTransaction")).toEqual({ method: "getTransaction", params: ["5sig", { encoding: "json" }] });
    await rpc.call("getSlot", "[]");
    expect(JSON.parse(received[1]!.body).id).toBe(2); // ids go on counting
  });

  it("hands back a JSON-RPC error as the reply's error; resultOf throws it with its code", async () => {
    answer = (body) => ({ text: JSON.stringify({ jsonrpc: "2.0", id: JSON.parse(body).id, error: { code: -32009, message: "Slot 5 was skipped" } }) });
    const reply = await createJsonRpc(url).call("getBlock", "[5]");
    expect(reply.error).toEqual({ code: -32009, message: "Slot 5 was skipped" });
    const thrown = (() => {
      try {
        resultOf(reply, "getBlock(5)");
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(JsonRpcError);
    expect(thrown).toMatchObject({ code: -32009, message: "getBlock(5): Slot 5 was skipped" });
  });

  it("throws an HTTP error as a JsonRpcError without a code, and a body that is not JSON as a parse error", async () => {
    answer = () => ({ status: 503, text: "upstream unavailable" });
    await expect(createJsonRpc(url).call("getSlot", "[]")).rejects.toMatchObject({ name: "JsonRpcError", code: null, message: "getSlot: HTTP 503: upstream unavailable" });
    answer = () => ({ text: "<html>gateway</html>" });
    await expect(createJsonRpc(url).call("getSlot", "[]")).rejects.toBeInstanceOf(SyntaxError);
    answer = () => ({ text: "null" });
    await expect(createJsonRpc(url).call("getSlot", "[]")).rejects.toThrow("getSlot: the reply is not a JSON-RPC response");
  });

  it("goes through the transport it is given", async () => {
    answer = echoing(() => 7);
    const sent: string[] = [];
    const rpc = createJsonRpc(url, (to, init) => {
      sent.push(`${init.method} ${to} ${init.body}`);
      return fetch(to, init);
    });
    expect(resultOf(await rpc.call("getSlot", "[]"), "getSlot")).toBe(7);
    expect(sent).toEqual([`POST ${url} {"jsonrpc":"2.0","id":1,"method":"getSlot","params":[]}`]);
  });
});

describe("a batch", () => {
  const calls = ["a", "b", "c"].map((s) => ({ method: "getTransaction", params: `["${s}"]` }));

  it("sends the calls as one array and answers in the order of the calls, whatever order the node used", async () => {
    answer = echoing((_, [signature]) => `tx ${signature}`, (replies) => [...replies].reverse());
    const rpc = createJsonRpc(url);
    await rpc.call("getSlot", "[]");
    const replies = await rpc.batch<string>(calls);
    expect(received[1]!.body).toBe(
      '[{"jsonrpc":"2.0","id":2,"method":"getTransaction","params":["a"]},{"jsonrpc":"2.0","id":3,"method":"getTransaction","params":["b"]},{"jsonrpc":"2.0","id":4,"method":"getTransaction","params":["c"]}]',
    );
    expect(replies.map((r) => r.result)).toEqual(["tx a", "tx b", "tx c"]);
  });

  it("is refused as such on an HTTP 4xx, or one non-transient error in place of the answers", async () => {
    answer = () => ({ status: 403, text: '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"batch requests are not allowed"}}' });
    await expect(createJsonRpc(url).batch(calls)).rejects.toBeInstanceOf(BatchRefusedError);
    answer = () => ({ text: '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"batch too large"}}' });
    await expect(createJsonRpc(url).batch(calls)).rejects.toBeInstanceOf(BatchRefusedError);
  });

  it("throws a transient error sent in place of the answers with its code, not as a refusal", async () => {
    answer = () => ({ text: '{"jsonrpc":"2.0","id":null,"error":{"code":-32005,"message":"Node is behind by 42 slots"}}' });
    const error = await createJsonRpc(url).batch(calls).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(BatchRefusedError);
    expect(error).toMatchObject({ name: "JsonRpcError", code: -32005, message: "batch: Node is behind by 42 slots" });
  });

  it("fails when a call has no reply", async () => {
    answer = echoing(() => 1, (replies) => replies.slice(1));
    await expect(createJsonRpc(url).batch(calls)).rejects.toThrow("batch: no reply to call 1 of 3");
  });
});

describe("the browser's calls", () => {
  it("jsonRpc sends params as values and answers the result, or throws the node's message", async () => {
    answer = echoing((method, params) => (method === "requestAirdrop" ? `sig for ${params[1]}` : null));
    expect(await jsonRpc<string>(url, "requestAirdrop", ["addr", 1_000_000_000])).toBe("sig for 1000000000");
    expect(received[0]!.body).toBe('{"jsonrpc":"2.0","id":1,"method":"requestAirdrop","params":["addr",1000000000]}');
    answer = () => ({ text: '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid param: WrongSize"}}' });
    await expect(jsonRpc(url, "getBalance", ["x"])).rejects.toMatchObject({ name: "JsonRpcError", code: -32602, message: "getBalance: Invalid param: WrongSize" });
  });

  it("lamportsOf reads a balance at confirmed as a bigint", async () => {
    answer = echoing((_, [, config]) => ({ context: { slot: 9 }, value: (config as { commitment: string }).commitment === "confirmed" ? 12_345 : 0 }));
    expect(await lamportsOf(url, "addr")).toBe(12_345n);
  });

  it("lamportsOf stops when its signal aborts", async () => {
    answer = echoing(() => ({ value: 1 }));
    await expect(lamportsOf(url, "addr", AbortSignal.abort())).rejects.toMatchObject({ name: "AbortError" });
  });

  it("waitConfirmed returns once every signature is confirmed, and throws on a failed one", async () => {
    answer = echoing((_, [signatures]) => ({ value: (signatures as string[]).map(() => ({ confirmationStatus: "confirmed", err: null })) }));
    await waitConfirmed(url, ["s1", "s2"]);
    answer = echoing((_, [signatures]) => ({ value: (signatures as string[]).map((s) => ({ confirmationStatus: "confirmed", err: s === "s2" ? { InstructionError: [0, "Custom"] } : null })) }));
    await expect(waitConfirmed(url, ["s1", "s2"])).rejects.toThrow('transaction s2 failed: {"InstructionError":[0,"Custom"]}');
  });
});
