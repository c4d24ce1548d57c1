import bs58 from "bs58";
import { TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from "../../lib/program";
import {
  addressParam,
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

/** The account methods: one, many, a program's (with filters), balances, in every account encoding. */

/** rentEpoch of rent-exempt accounts, u64::MAX; kept as text because JSON numbers lose it. */
const RENT_EPOCH = "18446744073709551615";

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

export const ACCOUNT_METHODS: Record<string, Handler> = { getAccountInfo, getMultipleAccounts, getProgramAccounts, getBalance };
