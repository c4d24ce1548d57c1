import { sleep } from "../resilience";

/**
 * JSON-RPC 2.0 over HTTP POST, the one client for every caller: the worker's
 * backfill (a getTransaction per transaction, in batches), the token
 * service's mint reads and the browser's few calls (a balance, the demo
 * wallet's airdrops). Bodies are written as text and each answer is parsed
 * once, without web3.js's client (jayson), which spends more on a request (a
 * uuid per id, a callback chain, a second pass over the reply) than the
 * decode of the transaction it carries.
 */

export interface JsonRpcReply<T = unknown> {
  result?: T;
  error?: { code: number; message: string; data?: unknown };
}

export interface JsonRpcCall {
  method: string;
  /** The params array as JSON text. */
  params: string;
}

/** How a request is sent: the global fetch, or what the caller passes (the worker's resilient fetch). */
export type JsonRpcTransport = (
  url: string,
  init: { method: "POST"; headers: Record<string, string>; body: string; signal?: AbortSignal },
) => Promise<{ ok: boolean; status: number; text(): Promise<string> }>;

/** A call that failed: the node's JSON-RPC error (with its code), or an HTTP error (code null). */
export class JsonRpcError extends Error {
  override name = "JsonRpcError";
  constructor(
    message: string,
    readonly code: number | null,
  ) {
    super(message);
  }
}

/**
 * The node refused a batch as such (an HTTP 4xx, or one error in place of the
 * batch's answers, with a code no retry cures): many providers do not take
 * batches, or take only small ones. Not a failure of the calls it carried.
 */
export class BatchRefusedError extends Error {
  override name = "BatchRefusedError";
}

/** A JSON-RPC code a healthy retry can cure: node behind or unhealthy, slot not yet available, rate limits. */
export const TRANSIENT_RPC_CODES = new Set([-32004, -32005, -32007, -32009, -32014, -32016, -32429, 429]);

const HEADERS = { "content-type": "application/json" };

const globalFetch: JsonRpcTransport = (url, init) => fetch(url, init);

/** A reply's result; its error thrown as a JsonRpcError naming `what` was called. */
export function resultOf<T>(reply: JsonRpcReply<T>, what: string): T {
  if (reply.error) throw new JsonRpcError(`${what}: ${reply.error.message}`, reply.error.code);
  return reply.result as T;
}

export function createJsonRpc(url: string, send: JsonRpcTransport = globalFetch) {
  let nextId = 1;

  async function post(body: string, signal?: AbortSignal): Promise<{ ok: boolean; status: number; text: string }> {
    const response = await send(url, { method: "POST", headers: HEADERS, body, signal });
    return { ok: response.ok, status: response.status, text: await response.text() };
  }

  return {
    /**
     * One call. A reply that is not JSON, or an HTTP error (a JsonRpcError
     * with code null), throws; a JSON-RPC error comes back as the reply's
     * `error` (resultOf throws it).
     */
    async call<T>(method: string, params: string, signal?: AbortSignal): Promise<JsonRpcReply<T>> {
      const id = nextId++;
      const { ok, status, text } = await post(`{"jsonrpc":"2.0","id":${id},"method":"${method}","params":${params}}`, signal);
      if (!ok) throw new JsonRpcError(`${method}: HTTP ${status}${text ? `: ${text.slice(0, 200)}` : ""}`, null);
      const reply = JSON.parse(text) as JsonRpcReply<T> | null;
      if (!reply || typeof reply !== "object") throw new Error(`${method}: the reply is not a JSON-RPC response`);
      return reply;
    },

    /**
     * Calls in one batch request; the replies in the order of the calls,
     * whatever order the node sent them in. Throws BatchRefusedError when the
     * node refuses batches, and a JsonRpcError with the code of a single
     * transient error sent in place of the batch's answers.
     */
    async batch<T>(calls: readonly JsonRpcCall[]): Promise<JsonRpcReply<T>[]> {
      const first = nextId;
      nextId += calls.length;
      const body = `[${calls.map((c, i) => `{"jsonrpc":"2.0","id":${first + i},"method":"${c.method}","params":${c.params}}`).join(",")}]`;
      const { ok, status, text } = await post(body);
      if (!ok) throw new BatchRefusedError(`HTTP ${status} to a batch of ${calls.length}: ${text.slice(0, 200)}`);
      const replies = JSON.parse(text) as unknown;
      if (!Array.isArray(replies)) {
        const error = (replies as JsonRpcReply | null)?.error;
        if (error && typeof error.code === "number" && TRANSIENT_RPC_CODES.has(error.code)) {
          throw new JsonRpcError(`batch: ${error.message}`, error.code);
        }
        throw new BatchRefusedError(`a batch of ${calls.length} was answered with ${text.slice(0, 200)}`);
      }
      const ordered: JsonRpcReply<T>[] = new Array(calls.length);
      for (const reply of replies as (JsonRpcReply<T> & { id?: unknown })[]) {
        const index = typeof reply?.id === "number" ? reply.id - first : -1;
        if (index >= 0 && index < calls.length) ordered[index] = reply;
      }
      for (let i = 0; i < calls.length; i++) {
        if (!ordered[i]) throw new Error(`batch: no reply to call ${i + 1} of ${calls.length}`);
      }
      return ordered;
    },
  };
}

/** One call with its params as values (one POST, over the global fetch): its result, or a JsonRpcError with the node's message. */
export async function jsonRpc<T>(url: string, method: string, params: unknown[] = [], signal?: AbortSignal): Promise<T> {
  return resultOf(await createJsonRpc(url).call<T>(method, JSON.stringify(params), signal), method);
}

/** Lamports held by `address`, as the node sees it at `confirmed`. */
export async function lamportsOf(url: string, address: string, signal?: AbortSignal): Promise<bigint> {
  const result = await jsonRpc<{ value: number | string }>(url, "getBalance", [address, { commitment: "confirmed" }], signal);
  return BigInt(result.value);
}

const CONFIRMED = new Set(["confirmed", "finalized"]);
const CONFIRM_POLL_MS = 400;

/** Waits until every signature is confirmed; throws on a failed transaction or after `timeoutMs`. */
export async function waitConfirmed(url: string, signatures: readonly string[], timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let pending = [...signatures];
  while (pending.length > 0) {
    const { value } = await jsonRpc<{ value: ({ confirmationStatus?: string; err: unknown } | null)[] }>(url, "getSignatureStatuses", [pending]);
    const failed = value.findIndex((s) => s?.err);
    if (failed >= 0) throw new JsonRpcError(`transaction ${pending[failed]} failed: ${JSON.stringify(value[failed]?.err)}`, null);
    pending = pending.filter((_, i) => !CONFIRMED.has(value[i]?.confirmationStatus ?? ""));
    if (pending.length === 0) return;
    if (Date.now() > deadline) throw new JsonRpcError(`not confirmed within ${timeoutMs / 1000} s: ${pending.join(", ")}`, null);
    await sleep(CONFIRM_POLL_MS);
  }
}
