import bs58 from "bs58";
import type { Commitment, Ledger, LedgerTransaction } from "./ledger";
import { transactionResultJson, type TransactionEncoding } from "./render";
import { TransactionRejected } from "./runtime";
import type { AccountRecord } from "./state";
import { rentExemptLamports } from "./state";
import { TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from "../../lib/program";

/**
 * The JSON-RPC methods of the local cluster, in the request and response
 * shapes of a Solana 2.x node: the same parameter forms, defaults (finalized
 * commitment, binary account encoding), limits, error codes and messages.
 */

export const API_VERSION = "2.2.14";
const FEATURE_SET = 3_294_202_862;
const SLOTS_PER_EPOCH = 432_000;
/** rentEpoch of rent-exempt accounts, u64::MAX; kept as text because JSON numbers lose it. */
const RENT_EPOCH = "18446744073709551615";

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** A result that is already JSON text, spliced into the response as is. */
export class RawJson {
  constructor(readonly json: string) {}
}

export type RpcResult = RawJson | unknown;

export interface RpcContext {
  ledger: Ledger;
  /** Appends a wire transaction in a new block (sendTransaction). */
  submit(wire: Uint8Array): LedgerTransaction;
}

type Handler = (ctx: RpcContext, params: unknown[]) => RpcResult;

const invalidParams = (message = "Invalid params") => new RpcError(-32602, message);

function configAt(params: unknown[], index: number): Record<string, unknown> {
  const value = params[index];
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) throw invalidParams(`Invalid params: invalid type: ${typeof value}, expected struct`);
  return value as Record<string, unknown>;
}

function commitmentOf(config: Record<string, unknown>): Commitment {
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

function atLeastConfirmed(config: Record<string, unknown>): Commitment {
  const commitment = commitmentOf(config);
  if (commitment === "processed") throw invalidParams("Method does not support commitment below `confirmed`");
  return commitment;
}

function checkMinContextSlot(ctx: RpcContext, config: Record<string, unknown>, slot: number): void {
  const min = config.minContextSlot;
  if (typeof min === "number" && slot < min) {
    throw new RpcError(-32016, "Minimum context slot has not been reached", { contextSlot: slot });
  }
}

function addressParam(value: unknown): string {
  if (typeof value !== "string") throw invalidParams("Invalid params: invalid type: expected a base58 string");
  try {
    if (bs58.decode(value).length === 32) return value;
  } catch {
    // falls through to the error below
  }
  throw invalidParams("Invalid param: Invalid");
}

function signatureParam(value: unknown): string {
  if (typeof value !== "string") throw invalidParams("Invalid params: invalid type: expected a base58 string");
  try {
    if (bs58.decode(value).length === 64) return value;
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
function transactionOf(ledger: Ledger, value: unknown): LedgerTransaction | undefined {
  const tx = typeof value === "string" ? ledger.bySignatureAvailable(value) : undefined;
  if (!tx) signatureParam(value);
  return tx;
}

function context(slot: number): string {
  return `{"apiVersion":"${API_VERSION}","slot":${slot}}`;
}

function withContext(slot: number, valueJson: string): RawJson {
  return new RawJson(`{"context":${context(slot)},"value":${valueJson}}`);
}

// ---- accounts ---------------------------------------------------------------------------------

type AccountEncoding = "binary" | "base58" | "base64" | "jsonParsed";

function accountEncoding(config: Record<string, unknown>): AccountEncoding {
  const e = config.encoding ?? "binary";
  if (e === "binary" || e === "base58" || e === "base64" || e === "jsonParsed") return e;
  if (e === "base64+zstd") throw invalidParams("Invalid params: base64+zstd is not supported by the local cluster");
  throw invalidParams(`Invalid params: unknown variant \`${String(e)}\``);
}

function dataSlice(config: Record<string, unknown>): { offset: number; length: number } | null {
  const s = config.dataSlice;
  if (s === undefined || s === null) return null;
  const { offset, length } = s as { offset?: unknown; length?: unknown };
  if (typeof offset !== "number" || typeof length !== "number" || offset < 0 || length < 0) throw invalidParams("Invalid params: dataSlice");
  return { offset, length };
}

function parsedTokenData(account: AccountRecord): string | null {
  if (account.owner !== TOKEN_PROGRAM_ADDRESS && account.owner !== TOKEN_2022_PROGRAM_ADDRESS) return null;
  const program = account.owner === TOKEN_PROGRAM_ADDRESS ? "spl-token" : "spl-token-2022";
  const d = account.data;
  const view = new DataView(d.buffer, d.byteOffset, d.byteLength);
  const isMint = d.length === 82 || (d.length > 165 && d[165] === 1);
  if (isMint) {
    const mintAuthority = view.getUint32(0, true) === 1 ? q(bs58.encode(d.subarray(4, 36))) : "null";
    const freezeAuthority = view.getUint32(46, true) === 1 ? q(bs58.encode(d.subarray(50, 82))) : "null";
    const info = `{"decimals":${d[44]},"freezeAuthority":${freezeAuthority},"isInitialized":${d[45] === 1},"mintAuthority":${mintAuthority},"supply":"${view.getBigUint64(36, true)}"}`;
    return `{"parsed":{"info":${info},"type":"mint"},"program":"${program}","space":${d.length}}`;
  }
  if (d.length >= 165) {
    const mint = bs58.encode(d.subarray(0, 32));
    const owner = bs58.encode(d.subarray(32, 64));
    const amount = view.getBigUint64(64, true);
    const info = `{"isNative":false,"mint":${q(mint)},"owner":${q(owner)},"state":"initialized","tokenAmount":{"amount":"${amount}"}}`;
    return `{"parsed":{"info":${info},"type":"account"},"program":"${program}","space":${d.length}}`;
  }
  return null;
}

const q = (s: string) => `"${s}"`;

function accountJson(account: AccountRecord | undefined, encoding: AccountEncoding, slice: { offset: number; length: number } | null): string {
  if (!account) return "null";
  const data = slice ? account.data.subarray(slice.offset, slice.offset + slice.length) : account.data;
  let dataJson: string;
  if (encoding === "jsonParsed" && !slice) dataJson = parsedTokenData(account) ?? `[${q(Buffer.from(data).toString("base64"))},"base64"]`;
  else if (encoding === "base64" || encoding === "jsonParsed") dataJson = `[${q(Buffer.from(data).toString("base64"))},"base64"]`;
  else if (encoding === "base58") dataJson = `[${q(bs58.encode(data))},"base58"]`;
  else dataJson = q(bs58.encode(data));
  return `{"data":${dataJson},"executable":${account.executable},"lamports":${account.lamports},"owner":${q(account.owner)},"rentEpoch":${RENT_EPOCH},"space":${account.data.length}}`;
}

function getAccountInfo(ctx: RpcContext, params: unknown[]): RpcResult {
  const address = addressParam(params[0]);
  const config = configAt(params, 1);
  const slot = ctx.ledger.visibleSlot(commitmentOf(config));
  checkMinContextSlot(ctx, config, slot);
  return withContext(slot, accountJson(ctx.ledger.accountAt(address, slot), accountEncoding(config), dataSlice(config)));
}

function getMultipleAccounts(ctx: RpcContext, params: unknown[]): RpcResult {
  const keys = params[0];
  if (!Array.isArray(keys)) throw invalidParams("Invalid params: invalid type: expected a sequence");
  if (keys.length > 100) throw invalidParams("Too many inputs provided; max 100");
  const addresses = keys.map(addressParam);
  const config = configAt(params, 1);
  const slot = ctx.ledger.visibleSlot(commitmentOf(config));
  checkMinContextSlot(ctx, config, slot);
  const encoding = accountEncoding(config);
  const slice = dataSlice(config);
  return withContext(slot, `[${addresses.map((a) => accountJson(ctx.ledger.accountAt(a, slot), encoding, slice)).join(",")}]`);
}

interface Filter {
  test(data: Uint8Array): boolean;
}

function parseFilters(value: unknown): Filter[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidParams("Invalid params: filters");
  if (value.length > 4) throw invalidParams("Too many filters provided; max 4");
  return value.map((f): Filter => {
    const filter = f as { memcmp?: { offset?: unknown; bytes?: unknown; encoding?: unknown }; dataSize?: unknown };
    if (typeof filter.dataSize === "number") {
      const size = filter.dataSize;
      return { test: (d) => d.length === size };
    }
    if (filter.memcmp) {
      const { offset, bytes, encoding } = filter.memcmp;
      if (typeof offset !== "number" || typeof bytes !== "string") throw invalidParams("Invalid params: memcmp");
      let expected: Uint8Array;
      try {
        if (encoding === "base64") expected = new Uint8Array(Buffer.from(bytes, "base64"));
        else {
          if (bytes.length > 128) throw invalidParams("Invalid param: filter memcmp bytes too large");
          expected = bs58.decode(bytes);
        }
      } catch (e) {
        if (e instanceof RpcError) throw e;
        throw invalidParams(`Invalid param: Invalid filter: ${String(e)}`);
      }
      return {
        test: (d) => {
          if (d.length < offset + expected.length) return false;
          for (let i = 0; i < expected.length; i++) if (d[offset + i] !== expected[i]) return false;
          return true;
        },
      };
    }
    throw invalidParams("Invalid params: unknown filter");
  });
}

function getProgramAccounts(ctx: RpcContext, params: unknown[]): RpcResult {
  const program = addressParam(params[0]);
  const config = configAt(params, 1);
  const filters = parseFilters(config.filters);
  const slot = ctx.ledger.visibleSlot(commitmentOf(config));
  checkMinContextSlot(ctx, config, slot);
  const encoding = accountEncoding(config);
  const slice = dataSlice(config);
  const state = ctx.ledger.state;
  const overlay = slot >= ctx.ledger.tip.slot ? new Map<string, AccountRecord | undefined>() : ctx.ledger.overlayAt(slot);
  const candidates = new Set(state.ownedBy(program));
  for (const address of overlay.keys()) candidates.add(address);
  const items: string[] = [];
  for (const address of candidates) {
    const account = overlay.has(address) ? overlay.get(address) : state.get(address);
    if (!account || account.owner !== program) continue;
    if (!filters.every((f) => f.test(account.data))) continue;
    items.push(`{"pubkey":${q(address)},"account":${accountJson(account, encoding, slice)}}`);
  }
  const value = `[${items.join(",")}]`;
  return config.withContext === true ? withContext(slot, value) : new RawJson(value);
}

function getBalance(ctx: RpcContext, params: unknown[]): RpcResult {
  const address = addressParam(params[0]);
  const config = configAt(params, 1);
  const slot = ctx.ledger.visibleSlot(commitmentOf(config));
  return withContext(slot, String(ctx.ledger.accountAt(address, slot)?.lamports ?? 0));
}

// ---- history ----------------------------------------------------------------------------------

function lowerBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function getSignaturesForAddress(ctx: RpcContext, params: unknown[]): RpcResult {
  const address = addressParam(params[0]);
  const config = configAt(params, 1);
  const commitment = atLeastConfirmed(config);
  const limit = config.limit ?? 1000;
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > 1000) throw invalidParams("Invalid limit; max 1000");
  const ledger = ctx.ledger;
  const visible = ledger.visibleSlot(commitment);
  checkMinContextSlot(ctx, config, visible);
  const finalized = ledger.visibleSlot("finalized");
  const positions = ledger.positionsOf(address);

  let index = positions.length - 1;
  if (config.before !== undefined && config.before !== null) {
    const before = transactionOf(ledger, config.before);
    // As on a real node, an unknown `before` yields nothing rather than starting from the top.
    if (!before || before.slot > visible) return new RawJson("[]");
    index = lowerBound(positions, before.position) - 1;
  }
  let untilPosition = -1;
  if (config.until !== undefined && config.until !== null) {
    const until = transactionOf(ledger, config.until);
    if (until) untilPosition = until.position;
  }

  const items: string[] = [];
  for (; index >= 0 && items.length < limit; index--) {
    const position = positions[index] as number;
    if (position <= untilPosition) break;
    const tx = ledger.transactionAt(position);
    if (!tx || tx.pruned) break;
    if (tx.slot > visible) continue;
    const status = tx.slot <= finalized ? "finalized" : "confirmed";
    const memo = tx.result.memo === null ? "null" : JSON.stringify(tx.result.memo);
    items.push(
      `{"signature":${q(tx.signature)},"slot":${tx.slot},"err":${tx.errJson},"memo":${memo},"blockTime":${tx.blockTime},"confirmationStatus":"${status}"}`,
    );
  }
  return new RawJson(`[${items.join(",")}]`);
}

function getTransaction(ctx: RpcContext, params: unknown[]): RpcResult {
  const tx = transactionOf(ctx.ledger, params[0]);
  // The old form passes the encoding as a bare string.
  const config = typeof params[1] === "string" ? { encoding: params[1] } : configAt(params, 1);
  const commitment = atLeastConfirmed(config);
  const encodingParam = config.encoding ?? "json";
  let encoding: TransactionEncoding;
  if (encodingParam === "json" || encodingParam === "jsonParsed") encoding = "json";
  else if (encodingParam === "base64" || encodingParam === "base58") encoding = encodingParam;
  else if (encodingParam === "binary") encoding = "base58";
  else throw invalidParams(`Invalid params: unknown variant \`${String(encodingParam)}\``);
  const maxVersion = config.maxSupportedTransactionVersion;
  if (maxVersion !== undefined && maxVersion !== null && maxVersion !== 0) {
    throw invalidParams(`Invalid params: unsupported maxSupportedTransactionVersion ${String(maxVersion)}`);
  }
  if (!tx || tx.slot > ctx.ledger.visibleSlot(commitment) || !tx.signed) return null;
  const versioned = maxVersion === 0;
  if (!versioned && tx.signed.message.version === 0) {
    throw new RpcError(
      -32015,
      'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
    );
  }
  return new RawJson(transactionResultJson(tx, encoding, versioned));
}

function getSignatureStatuses(ctx: RpcContext, params: unknown[]): RpcResult {
  const signatures = params[0];
  if (!Array.isArray(signatures)) throw invalidParams("Invalid params: invalid type: expected a sequence");
  if (signatures.length > 256) throw invalidParams("Too many inputs provided; max 256");
  const ledger = ctx.ledger;
  const tip = ledger.visibleSlot("confirmed");
  const finalized = ledger.visibleSlot("finalized");
  const values = signatures.map((s) => {
    const tx = transactionOf(ledger, s);
    if (!tx || tx.slot > tip) return "null";
    const isFinal = tx.slot <= finalized;
    const status = tx.result.err === null ? `{"Ok":null}` : `{"Err":${tx.errJson}}`;
    return `{"slot":${tx.slot},"confirmations":${isFinal ? "null" : tip - tx.slot},"err":${tx.errJson},"status":${status},"confirmationStatus":"${isFinal ? "finalized" : "confirmed"}"}`;
  });
  return withContext(tip, `[${values.join(",")}]`);
}

function getBlockTime(ctx: RpcContext, params: unknown[]): RpcResult {
  const slot = params[0];
  if (typeof slot !== "number" || !Number.isInteger(slot) || slot < 0) throw invalidParams("Invalid params: invalid type: expected u64");
  const ledger = ctx.ledger;
  if (slot > ledger.visibleSlot("confirmed")) throw new RpcError(-32004, `Block not available for slot ${slot}`);
  if (slot < ledger.firstAvailableSlot) throw new RpcError(-32009, `Slot ${slot} was skipped, or missing in long-term storage`);
  const record = ledger.slot(slot);
  if (!record) throw new RpcError(-32007, `Slot ${slot} was skipped, or missing due to ledger jump to recent snapshot`);
  return record.blockTime;
}

// ---- cluster ----------------------------------------------------------------------------------

function getSlot(ctx: RpcContext, params: unknown[]): RpcResult {
  const config = configAt(params, 0);
  return ctx.ledger.visibleSlot(commitmentOf(config));
}

function blockHeightAt(ledger: Ledger, slot: number): number {
  return ledger.slot(slot)?.blockHeight ?? ledger.tip.blockHeight;
}

function getBlockHeight(ctx: RpcContext, params: unknown[]): RpcResult {
  const slot = ctx.ledger.visibleSlot(commitmentOf(configAt(params, 0)));
  return blockHeightAt(ctx.ledger, slot);
}

function getLatestBlockhash(ctx: RpcContext, params: unknown[]): RpcResult {
  const slot = ctx.ledger.visibleSlot(commitmentOf(configAt(params, 0)));
  const record = ctx.ledger.slot(slot) ?? ctx.ledger.tip;
  return withContext(slot, `{"blockhash":${q(record.blockhash)},"lastValidBlockHeight":${record.blockHeight + 150}}`);
}

function isBlockhashValid(ctx: RpcContext, params: unknown[]): RpcResult {
  if (typeof params[0] !== "string") throw invalidParams();
  const slot = ctx.ledger.visibleSlot(commitmentOf(configAt(params, 1)));
  return withContext(slot, String(ctx.ledger.isRecentBlockhash(params[0])));
}

function getEpochInfo(ctx: RpcContext, params: unknown[]): RpcResult {
  const slot = ctx.ledger.visibleSlot(commitmentOf(configAt(params, 0)));
  return {
    absoluteSlot: slot,
    blockHeight: blockHeightAt(ctx.ledger, slot),
    epoch: Math.floor(slot / SLOTS_PER_EPOCH),
    slotIndex: slot % SLOTS_PER_EPOCH,
    slotsInEpoch: SLOTS_PER_EPOCH,
    transactionCount: ctx.ledger.transactions.length,
  };
}

function getHealth(ctx: RpcContext): RpcResult {
  const behind = ctx.ledger.behindSlots;
  if (behind > 0) throw new RpcError(-32005, `Node is behind by ${behind} slots`, { numSlotsBehind: behind });
  return "ok";
}

function sendTransaction(ctx: RpcContext, params: unknown[]): RpcResult {
  const payload = params[0];
  if (typeof payload !== "string") throw invalidParams();
  const config = configAt(params, 1);
  const encoding = config.encoding ?? "base58";
  let wire: Uint8Array;
  try {
    wire = encoding === "base64" ? new Uint8Array(Buffer.from(payload, "base64")) : bs58.decode(payload);
  } catch {
    throw invalidParams("invalid transaction: failed to decode");
  }
  try {
    return ctx.submit(wire).signature;
  } catch (e) {
    if (e instanceof TransactionRejected) throw new RpcError(e.rpcCode, `Transaction simulation failed: ${e.message}`);
    throw new RpcError(-32602, `invalid transaction: ${(e as Error).message}`);
  }
}

const METHODS: Record<string, Handler> = {
  getAccountInfo,
  getMultipleAccounts,
  getProgramAccounts,
  getBalance,
  getSignaturesForAddress,
  getTransaction,
  getSignatureStatuses,
  getBlockTime,
  getSlot,
  getBlockHeight,
  getLatestBlockhash,
  isBlockhashValid,
  getEpochInfo,
  getHealth,
  getVersion: () => ({ "feature-set": FEATURE_SET, "solana-core": API_VERSION }),
  getGenesisHash: (ctx) => ctx.ledger.genesisHash,
  getFirstAvailableBlock: (ctx) => ctx.ledger.firstAvailableSlot,
  minimumLedgerSlot: (ctx) => ctx.ledger.firstAvailableSlot,
  getTransactionCount: (ctx) => ctx.ledger.transactions.length,
  getMinimumBalanceForRentExemption: (_ctx, params) => {
    if (typeof params[0] !== "number") throw invalidParams();
    return rentExemptLamports(params[0]);
  },
  sendTransaction,
};

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
