import { ACCOUNT_METHODS } from "./rpc-accounts";
import { BLOCK_METHODS } from "./rpc-blocks";
import { CLUSTER_METHODS } from "./rpc-cluster";
import { FEE_METHODS } from "./rpc-fees";
import { HISTORY_METHODS } from "./rpc-history";
import { TOKEN_METHODS } from "./rpc-tokens";
import { TRANSACTION_METHODS } from "./rpc-transactions";
import { type Handler, invalidParams, RawJson, type RpcContext, RpcError } from "./rpc-params";

/**
 * The JSON-RPC methods of the local cluster, in the request and response
 * shapes of a Solana 2.x node: the same parameter forms, defaults (finalized
 * commitment, binary account encoding), limits, error codes and messages.
 * Each family lives in its own module; this one dispatches a call.
 */

export { API_VERSION, RawJson, type RpcContext, RpcError, type RpcResult } from "./rpc-params";

const METHODS: Record<string, Handler> = { ...ACCOUNT_METHODS, ...TOKEN_METHODS, ...HISTORY_METHODS, ...BLOCK_METHODS, ...CLUSTER_METHODS, ...TRANSACTION_METHODS, ...FEE_METHODS };

export function isKnownMethod(method: string): boolean {
  return Object.hasOwn(METHODS, method);
}

/** Runs one call; the result is JSON text ready for the response envelope. */
export function callMethod(ctx: RpcContext, method: string, params: unknown): string {
  const handler = Object.hasOwn(METHODS, method) ? METHODS[method] : undefined;
  if (!handler) throw new RpcError(-32601, "Method not found");
  if (params !== undefined && params !== null && !Array.isArray(params)) throw invalidParams("Invalid params: expected an array");
  const result = handler(ctx, (params as unknown[] | undefined) ?? []);
  return result instanceof RawJson ? result.json : (JSON.stringify(result) ?? "null");
}
