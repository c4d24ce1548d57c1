/**
 * A few Solana JSON-RPC calls from the browser without web3.js (the balance in
 * the wallet menu, the demo wallet's airdrops): one POST each, errors thrown
 * with the node's message.
 */
export class JsonRpcError extends Error {
  override name = "JsonRpcError";
  constructor(
    message: string,
    readonly code: number | null,
  ) {
    super(message);
  }
}

export async function jsonRpc<T>(url: string, method: string, params: unknown[] = [], signal?: AbortSignal): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    signal,
  });
  if (!response.ok) throw new JsonRpcError(`${method}: HTTP ${response.status}`, null);
  const body = (await response.json()) as { result?: T; error?: { code: number; message: string } };
  if (body.error) throw new JsonRpcError(`${method}: ${body.error.message}`, body.error.code);
  return body.result as T;
}

/** Lamports held by `address`, as the node sees it at `confirmed`. */
export async function lamportsOf(url: string, address: string, signal?: AbortSignal): Promise<bigint> {
  const result = await jsonRpc<{ value: number | string }>(url, "getBalance", [address, { commitment: "confirmed" }], signal);
  return BigInt(result.value);
}

const CONFIRMED = new Set(["confirmed", "finalized"]);

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
    await new Promise((resolve) => setTimeout(resolve, 400));
  }
}
