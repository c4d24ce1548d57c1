import bs58 from "bs58";
import { accountEncoding, accountJson, dataSlice, decimalsAt, programAccountsAt } from "./rpc-accounts";
import { base58Param, checkMinContextSlot, commitmentOf, configAt, type Handler, invalidParams, q, type RpcContext, type RpcResult, withContext } from "./rpc-params";
import { isTokenProgram, tokenAmountJson } from "./token-json";
import { isTokenAccountData, mintDecimals, tokenAccountAmount } from "./tokens";

/** The token methods: an owner's token accounts (by mint or by token program), a token account's balance, a mint's supply. */

function visibleSlot(ctx: RpcContext, config: Record<string, unknown>): number {
  const slot = ctx.ledger.visibleSlot(commitmentOf(config));
  checkMinContextSlot(ctx, config, slot);
  return slot;
}

function getTokenAccountsByOwner(ctx: RpcContext, params: unknown[]): RpcResult {
  const owner = base58Param(params[0], 32);
  const filter = params[1] as { mint?: unknown; programId?: unknown } | undefined;
  if (!filter || typeof filter !== "object" || (filter.mint === undefined) === (filter.programId === undefined)) {
    throw invalidParams("Invalid params: expected a filter with either mint or programId");
  }
  const config = configAt(params, 2);
  const slot = visibleSlot(ctx, config);
  let mint: string | null = null;
  let programs: string[];
  if (filter.mint !== undefined) {
    mint = base58Param(filter.mint, 32);
    const mintRecord = ctx.ledger.accountAt(mint, slot);
    if (!mintRecord || !isTokenProgram(mintRecord.owner)) throw invalidParams("Invalid param: could not find mint");
    programs = [mintRecord.owner];
  } else {
    const programId = base58Param(filter.programId, 32);
    if (!isTokenProgram(programId)) throw invalidParams("Invalid param: unrecognized Token program id");
    programs = [programId];
  }
  const ownerBytes = bs58.decode(owner);
  const mintBytes = mint === null ? null : bs58.decode(mint);
  const matches = (d: Uint8Array, at: number, bytes: Uint8Array) => bytes.every((b, i) => d[at + i] === b);
  const encoding = accountEncoding(config);
  const slice = dataSlice(config);
  const decimalsOf = decimalsAt(ctx, slot);
  const items: string[] = [];
  for (const program of programs) {
    for (const [address, account] of programAccountsAt(ctx, program, slot)) {
      const d = account.data;
      if (!isTokenAccountData(d) || !matches(d, 32, ownerBytes) || (mintBytes && !matches(d, 0, mintBytes))) continue;
      items.push(`{"pubkey":${q(address)},"account":${accountJson(account, encoding, slice, decimalsOf)}}`);
    }
  }
  return withContext(slot, `[${items.join(",")}]`);
}

function getTokenAccountBalance(ctx: RpcContext, params: unknown[]): RpcResult {
  const address = base58Param(params[0], 32);
  const slot = visibleSlot(ctx, configAt(params, 1));
  const account = ctx.ledger.accountAt(address, slot);
  if (!account || !isTokenProgram(account.owner) || !isTokenAccountData(account.data)) throw invalidParams("Invalid param: not a Token account");
  const decimals = decimalsAt(ctx, slot)(bs58.encode(account.data.subarray(0, 32)));
  if (decimals === undefined) throw invalidParams("Invalid param: could not find mint");
  return withContext(slot, tokenAmountJson(tokenAccountAmount(account.data), decimals));
}

function getTokenSupply(ctx: RpcContext, params: unknown[]): RpcResult {
  const address = base58Param(params[0], 32);
  const slot = visibleSlot(ctx, configAt(params, 1));
  const mint = ctx.ledger.accountAt(address, slot);
  const decimals = mint && isTokenProgram(mint.owner) ? mintDecimals(mint.data) : undefined;
  if (!mint || decimals === undefined) throw invalidParams("Invalid param: not a Token mint");
  return withContext(slot, tokenAmountJson(new DataView(mint.data.buffer, mint.data.byteOffset, mint.data.byteLength).getBigUint64(36, true), decimals));
}

export const TOKEN_METHODS: Record<string, Handler> = { getTokenAccountsByOwner, getTokenAccountBalance, getTokenSupply };
