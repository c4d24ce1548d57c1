/**
 * JSON-RPC 2.0 over the worker's resilient fetch, for the backfill's hot calls
 * (a getTransaction per transaction): the body is written as text and the
 * answer parsed once, without web3.js's client (jayson), which spends more on
 * a request (a uuid per id, a callback chain, a second pass over the reply)
 * than the decode of the transaction it carries.
 */

export interface JsonRpcReply<T = unknown> {
  result?: T;
  error?: { code: number; message: string; data?: unknown };
}

/** What the worker's fetch answers: web3.js's view of a response. */
type Send = (url: string, init: { method: "POST"; headers: Record<string, string>; body: string }) => Promise<{ ok: boolean; status: number; text(): Promise<string> }>;

export interface JsonRpcCall {
  method: string;
  /** The params array as JSON text. */
  params: string;
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

export function createJsonRpc(url: string, send: Send) {
  let nextId = 1;

  async function post(body: string): Promise<{ ok: boolean; status: number; text: string }> {
    const response = await send(url, { method: "POST", headers: HEADERS, body });
    return { ok: response.ok, status: response.status, text: await response.text() };
  }

  return {
    /**
     * One call. A reply that is not JSON, or an HTTP error, throws an error
     * without a JSON-RPC code (the caller retries those); a JSON-RPC error
     * comes back as the reply's `error`.
     */
    async call<T>(method: string, params: string): Promise<JsonRpcReply<T>> {
      const id = nextId++;
      const { ok, status, text } = await post(`{"jsonrpc":"2.0","id":${id},"method":"${method}","params":${params}}`);
      if (!ok) throw new Error(`${method}: HTTP ${status}: ${text.slice(0, 200)}`);
      const reply = JSON.parse(text) as JsonRpcReply<T> | null;
      if (!reply || typeof reply !== "object") throw new Error(`${method}: the reply is not a JSON-RPC response`);
      return reply;
    },

    /**
     * Calls in one batch request; the replies in the order of the calls,
     * whatever order the node sent them in. Throws BatchRefusedError when the
     * node refuses batches, and an error with the code of a single transient
     * error sent in place of the batch's answers.
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
          throw Object.assign(new Error(`batch: ${error.message}`), { code: error.code });
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
