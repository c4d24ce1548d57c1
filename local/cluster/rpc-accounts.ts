import bs58 from "bs58";
import { SYSTEM_PROGRAM_ADDRESS } from "../../lib/program";
import {
  base58Param,
  checkMinContextSlot,
  commitmentOf,
  configAt,
  type Handler,
  invalidParams,
  q,
  RawJson,
  type RpcContext,
  RpcError,
  type RpcResult,
  withContext,
} from "./rpc-params";
import type { AccountRecord } from "./state";
import { isTokenProgram, parsedTokenData } from "./token-json";
import { mintDecimals } from "./tokens";

/** The account methods: one, many, a program's (with filters), balances, in every account encoding. */

/** rentEpoch of rent-exempt accounts, u64::MAX; kept as text because JSON numbers lose it. */
const RENT_EPOCH = "18446744073709551615";

export type AccountEncoding = "binary" | "base58" | "base64" | "jsonParsed";

export function accountEncoding(config: Record<string, unknown>): AccountEncoding {
  const e = config.encoding ?? "binary";
  if (e === "binary" || e === "base58" || e === "base64" || e === "jsonParsed") return e;
  if (e === "base64+zstd") throw invalidParams("Invalid params: base64+zstd is not supported by the local cluster");
  throw invalidParams(`Invalid params: unknown variant \`${String(e)}\``);
}

export function dataSlice(config: Record<string, unknown>): { offset: number; length: number } | null {
  const s = config.dataSlice;
  if (s === undefined || s === null) return null;
  const { offset, length } = s as { offset?: unknown; length?: unknown };
  if (typeof offset !== "number" || typeof length !== "number" || offset < 0 || length < 0) throw invalidParams("Invalid params: dataSlice");
  return { offset, length };
}

/** A mint's decimals at `slot`, for parsing its token accounts. */
export function decimalsAt(ctx: Pick<RpcContext, "ledger">, slot: number): (mint: string) => number | undefined {
  return (mint) => {
    const record = ctx.ledger.accountAt(mint, slot);
    return record && isTokenProgram(record.owner) ? mintDecimals(record.data) : undefined;
  };
}

export function accountJson(
  account: AccountRecord | undefined,
  encoding: AccountEncoding,
  slice: { offset: number; length: number } | null,
  decimalsOf: (mint: string) => number | undefined = () => undefined,
  rentEpoch = RENT_EPOCH,
): string {
  if (!account) return "null";
  const data = slice ? account.data.subarray(slice.offset, slice.offset + slice.length) : account.data;
  let dataJson: string;
  if (encoding === "jsonParsed" && !slice) dataJson = parsedTokenData(account, decimalsOf) ?? `[${q(Buffer.from(data).toString("base64"))},"base64"]`;
  else if (encoding === "base64" || encoding === "jsonParsed") dataJson = `[${q(Buffer.from(data).toString("base64"))},"base64"]`;
  else if (encoding === "base58") dataJson = `[${q(bs58.encode(data))},"base58"]`;
  else dataJson = q(bs58.encode(data));
  return `{"data":${dataJson},"executable":${account.executable},"lamports":${account.lamports},"owner":${q(account.owner)},"rentEpoch":${rentEpoch},"space":${account.data.length}}`;
}

const NO_ACCOUNT: AccountRecord = { lamports: 0, owner: SYSTEM_PROGRAM_ADDRESS, data: new Uint8Array(0), executable: false };

/** What a node shows for an account that no longer exists where it must show one (accountNotification): the default account, rent epoch 0. */
export function closedAccountJson(encoding: AccountEncoding, slice: { offset: number; length: number } | null): string {
  return accountJson(NO_ACCOUNT, encoding, slice, undefined, "0");
}

function getAccountInfo(ctx: RpcContext, params: unknown[]): RpcResult {
  const address = base58Param(params[0], 32);
  const config = configAt(params, 1);
  const slot = ctx.ledger.visibleSlot(commitmentOf(config));
  checkMinContextSlot(ctx, config, slot);
  return withContext(slot, accountJson(ctx.ledger.accountAt(address, slot), accountEncoding(config), dataSlice(config), decimalsAt(ctx, slot)));
}

function getMultipleAccounts(ctx: RpcContext, params: unknown[]): RpcResult {
  const keys = params[0];
  if (!Array.isArray(keys)) throw invalidParams("Invalid params: invalid type: expected a sequence");
  if (keys.length > 100) throw invalidParams("Too many inputs provided; max 100");
  const addresses = keys.map((k) => base58Param(k, 32));
  const config = configAt(params, 1);
  const slot = ctx.ledger.visibleSlot(commitmentOf(config));
  checkMinContextSlot(ctx, config, slot);
  const encoding = accountEncoding(config);
  const slice = dataSlice(config);
  const decimalsOf = decimalsAt(ctx, slot);
  return withContext(slot, `[${addresses.map((a) => accountJson(ctx.ledger.accountAt(a, slot), encoding, slice, decimalsOf)).join(",")}]`);
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

/** Accounts owned by `program` as of `slot`: the current ones, with later transactions' changes taken back. */
export function programAccountsAt(ctx: RpcContext, program: string, slot: number): Array<[string, AccountRecord]> {
  const state = ctx.ledger.state;
  const overlay = slot >= ctx.ledger.tip.slot ? new Map<string, AccountRecord | undefined>() : ctx.ledger.overlayAt(slot);
  const candidates = new Set(state.ownedBy(program));
  for (const address of overlay.keys()) candidates.add(address);
  const out: Array<[string, AccountRecord]> = [];
  for (const address of candidates) {
    const account = overlay.has(address) ? overlay.get(address) : state.get(address);
    if (account && account.owner === program) out.push([address, account]);
  }
  return out;
}

function getProgramAccounts(ctx: RpcContext, params: unknown[]): RpcResult {
  const program = base58Param(params[0], 32);
  const config = configAt(params, 1);
  const filters = parseFilters(config.filters);
  const slot = ctx.ledger.visibleSlot(commitmentOf(config));
  checkMinContextSlot(ctx, config, slot);
  const encoding = accountEncoding(config);
  const slice = dataSlice(config);
  const decimalsOf = decimalsAt(ctx, slot);
  const items: string[] = [];
  for (const [address, account] of programAccountsAt(ctx, program, slot)) {
    if (!filters.every((f) => f.test(account.data))) continue;
    items.push(`{"pubkey":${q(address)},"account":${accountJson(account, encoding, slice, decimalsOf)}}`);
  }
  const value = `[${items.join(",")}]`;
  return config.withContext === true ? withContext(slot, value) : new RawJson(value);
}

function getBalance(ctx: RpcContext, params: unknown[]): RpcResult {
  const address = base58Param(params[0], 32);
  const config = configAt(params, 1);
  const slot = ctx.ledger.visibleSlot(commitmentOf(config));
  return withContext(slot, String(ctx.ledger.accountAt(address, slot)?.lamports ?? 0));
}

export const ACCOUNT_METHODS: Record<string, Handler> = { getAccountInfo, getMultipleAccounts, getProgramAccounts, getBalance };
