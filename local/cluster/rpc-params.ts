import bs58 from "bs58";
import type { Faucet } from "./faucet";
import type { BlockContext } from "./execution-types";
import type { Commitment, Ledger, LedgerTransaction } from "./ledger";
import type { UiTransactionEncoding } from "./render";
import { RawJson } from "./value-json";

/**
 * What every JSON-RPC method of the local cluster shares: its errors, the
 * context it runs in, and the parameter forms of a Solana 2.x node (config
 * objects, commitments, base58 addresses and signatures, result contexts).
 */

export const API_VERSION = "2.2.14";

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export { RawJson };

export type RpcResult = RawJson | unknown;

export interface RpcContext {
  ledger: Ledger;
  /** Appends a wire transaction in a new block (sendTransaction). */
  submit(wire: Uint8Array): LedgerTransaction;
  /** The block a transaction sent now would land in: what simulations run as (the program's clock). */
  nextBlock(): BlockContext;
  /** requestAirdrop and requestTokenAirdrop land their transactions through it. */
  faucet: Faucet;
}

export type Handler = (ctx: RpcContext, params: unknown[]) => RpcResult;

export const invalidParams = (message = "Invalid params") => new RpcError(-32602, message);

export function configAt(params: unknown[], index: number): Record<string, unknown> {
  const value = params[index];
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) throw invalidParams(`Invalid params: invalid type: ${typeof value}, expected struct`);
  return value as Record<string, unknown>;
}

export function commitmentOf(config: Record<string, unknown>): Commitment {
  const c = config.commitment;
  if (c === undefined || c === null) return "finalized";
  switch (c) {
    case "processed":
    case "recent":
      return "processed";
    case "confirmed":
    case "single":
    case "singleGossip":
      return "confirmed";
    case "finalized":
    case "root":
    case "max":
      return "finalized";
    default:
      throw invalidParams(`Invalid params: unknown variant \`${String(c)}\`, expected one of \`processed\`, \`confirmed\`, \`finalized\``);
  }
}

export function atLeastConfirmed(config: Record<string, unknown>): Commitment {
  const commitment = commitmentOf(config);
  if (commitment === "processed") throw invalidParams("Method does not support commitment below `confirmed`");
  return commitment;
}

export function checkMinContextSlot(ctx: RpcContext, config: Record<string, unknown>, slot: number): void {
  const min = config.minContextSlot;
  if (typeof min === "number" && slot < min) {
    throw new RpcError(-32016, "Minimum context slot has not been reached", { contextSlot: slot });
  }
}

/** A base58 param that must decode to `bytes` bytes: 32 for an address, 64 for a signature. */
export function base58Param(value: unknown, bytes: 32 | 64): string {
  if (typeof value !== "string") throw invalidParams("Invalid params: invalid type: expected a base58 string");
  try {
    if (bs58.decode(value).length === bytes) return value;
  } catch {
    // falls through to the error below
  }
  throw invalidParams("Invalid param: Invalid");
}

/**
 * The transaction a signature param names, if the ledger has it. Only a
 * string the ledger does not know is decoded to tell a malformed signature
 * (Invalid param) from an unknown one: the lookup is the hot path.
 */
export function transactionOf(ledger: Ledger, value: unknown): LedgerTransaction | undefined {
  const tx = typeof value === "string" ? ledger.bySignatureAvailable(value) : undefined;
  if (!tx) base58Param(value, 64);
  return tx;
}

/** getTransaction's and getBlock's `encoding` (default json), as a node names them. */
export function transactionEncodingParam(config: Record<string, unknown>): UiTransactionEncoding {
  const encoding = config.encoding ?? "json";
  if (encoding === "json" || encoding === "jsonParsed" || encoding === "base64" || encoding === "base58" || encoding === "binary") return encoding;
  throw invalidParams(`Invalid params: unknown variant \`${String(encoding)}\`, expected one of \`binary\`, \`base64\`, \`base58\`, \`json\`, \`jsonParsed\``);
}

/** maxSupportedTransactionVersion: unset (only legacy transactions are served, without `version`) or a u8. */
export function maxVersionParam(config: Record<string, unknown>): number | null {
  const value = config.maxSupportedTransactionVersion;
  if (value === undefined || value === null) return null;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > 255) {
    throw invalidParams(`Invalid params: invalid value: ${JSON.stringify(value)}, expected u8`);
  }
  return value;
}

/** A node refuses to encode a transaction newer than the client said it supports (-32015). */
export function checkTransactionVersion(tx: LedgerTransaction, maxVersion: number | null): void {
  if (tx.version === "legacy" || (maxVersion !== null && tx.version <= maxVersion)) return;
  throw new RpcError(
    -32015,
    `Transaction version (${tx.version}) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": ${tx.version}`,
  );
}

function context(slot: number): string {
  return `{"apiVersion":"${API_VERSION}","slot":${slot}}`;
}

export function withContext(slot: number, valueJson: string): RawJson {
  return new RawJson(`{"context":${context(slot)},"value":${valueJson}}`);
}

export const q = (s: string) => `"${s}"`;
