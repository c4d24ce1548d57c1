import bs58 from "bs58";
import { FaucetRefusal } from "./faucet";
import { accountJson, decimalsAt } from "./rpc-accounts";
import { describeInstructionError } from "./frame";
import { base58Param, configAt, type Handler, invalidParams, type RpcContext, RpcError, type RpcResult, withContext } from "./rpc-params";
import { type TransactionError, TransactionRejected } from "./transaction-executor";
import { type SimulationOutcome, simulateMessage } from "./simulate-transaction";
import { parseWireTransaction, type SignedTransaction, verifySignatures } from "./wire";

/**
 * The transaction methods: simulateTransaction, sendTransaction with its
 * preflight, requestAirdrop, and the local-only requestTokenAirdrop faucet.
 */

function decodeTransactionParam(payload: unknown, config: Record<string, unknown>): SignedTransaction {
  if (typeof payload !== "string") throw invalidParams();
  const encoding = config.encoding ?? "base58";
  if (encoding !== "base58" && encoding !== "base64") throw invalidParams(`Invalid params: unknown variant \`${String(encoding)}\`, expected \`base58\` or \`base64\``);
  let wire: Uint8Array;
  try {
    wire = encoding === "base64" ? new Uint8Array(Buffer.from(payload, "base64")) : bs58.decode(payload);
  } catch {
    throw invalidParams(`invalid transaction: failed to decode ${encoding} string`);
  }
  try {
    return parseWireTransaction(wire);
  } catch (e) {
    throw invalidParams(`invalid transaction: failed to deserialize VersionedTransaction: ${(e as Error).message}`);
  }
}

function signatureOf(signed: SignedTransaction): string {
  return bs58.encode(signed.signatures[0] ?? new Uint8Array(64));
}

const signatureFailure = () => new RpcError(-32003, "Transaction signature verification failure");

/** The node's words for a failed simulation, as sendTransaction's preflight error message. */
function errorText(outcome: SimulationOutcome): string {
  const err = outcome.err as TransactionError;
  if (typeof err === "string") return outcome.message ?? err;
  const [index, detail] = err.InstructionError;
  return `Error processing Instruction ${index}: ${describeInstructionError(detail)}`;
}

function innerInstructionsValue(signed: SignedTransaction, outcome: SimulationOutcome): unknown[] {
  const result = outcome.result;
  if (!result) return [];
  const keys = [...signed.message.staticKeys, ...result.loadedAddresses.writable, ...result.loadedAddresses.readonly];
  return result.innerInstructions.map((group) => ({
    index: group.index,
    instructions: group.instructions.map((ix) => ({
      programId: keys[ix.programIdIndex],
      accounts: ix.accounts.map((i) => keys[i]),
      data: bs58.encode(ix.data),
      stackHeight: ix.stackHeight,
    })),
  }));
}

/** simulateTransaction's `accounts` config: which accounts to return after the simulation, and how. */
function accountsConfig(config: Record<string, unknown>): { addresses: string[]; encoding: "base64" | "jsonParsed" } | null {
  const value = config.accounts as { addresses?: unknown; encoding?: unknown } | undefined | null;
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value.addresses)) throw invalidParams("Invalid params: accounts.addresses");
  const encoding = value.encoding ?? "base64";
  if (encoding !== "base64" && encoding !== "jsonParsed") throw invalidParams(`Invalid params: ${String(encoding)} encoding is not supported for simulated accounts`);
  return { addresses: value.addresses.map((a) => base58Param(a, 32)), encoding };
}

function simulationValue(signed: SignedTransaction, outcome: SimulationOutcome, withInner: boolean) {
  return {
    err: outcome.err,
    logs: outcome.result?.logMessages ?? [],
    accounts: null,
    unitsConsumed: outcome.result?.computeUnitsConsumed ?? 0,
    returnData: null,
    innerInstructions: withInner ? innerInstructionsValue(signed, outcome) : null,
    replacementBlockhash: outcome.replacement,
  };
}

function simulateTransaction(ctx: RpcContext, params: unknown[]): RpcResult {
  const config = configAt(params, 1);
  const signed = decodeTransactionParam(params[0], config);
  const replace = config.replaceRecentBlockhash === true;
  if (replace && config.sigVerify === true) throw invalidParams("sigVerify may not be used with replaceRecentBlockhash");
  if (config.sigVerify === true && !verifySignatures(signed)) throw signatureFailure();
  const accounts = accountsConfig(config);
  const outcome = simulateMessage(ctx.ledger, signed.message, signatureOf(signed), { replaceRecentBlockhash: replace, block: ctx.nextBlock(), capture: accounts?.addresses });
  const value = simulationValue(signed, outcome, config.innerInstructions === true);
  if (!accounts || outcome.accounts === null) return withContext(outcome.slot, JSON.stringify(value));
  // Account JSON is spliced in as text: rentEpoch is u64::MAX, which a JS number cannot hold.
  const decimalsOf = decimalsAt(ctx, ctx.ledger.tip.slot);
  const accountsText = `[${outcome.accounts.map((a) => accountJson(a, accounts.encoding, null, decimalsOf)).join(",")}]`;
  const fields = Object.entries(value).map(([key, field]) => `${JSON.stringify(key)}:${key === "accounts" ? accountsText : JSON.stringify(field)}`);
  return withContext(outcome.slot, `{${fields.join(",")}}`);
}

function sendTransaction(ctx: RpcContext, params: unknown[]): RpcResult {
  const config = configAt(params, 1);
  const signed = decodeTransactionParam(params[0], config);
  if (!verifySignatures(signed)) throw signatureFailure();
  if (config.skipPreflight !== true) {
    const outcome = simulateMessage(ctx.ledger, signed.message, signatureOf(signed), { replaceRecentBlockhash: false, block: ctx.nextBlock() });
    if (outcome.err !== null) {
      throw new RpcError(-32002, `Transaction simulation failed: ${errorText(outcome)}`, simulationValue(signed, outcome, false));
    }
  }
  try {
    return ctx.submit(signed.wire).signature;
  } catch (e) {
    if (e instanceof TransactionRejected) throw new RpcError(e.rpcCode, `Transaction simulation failed: ${e.message}`);
    throw new RpcError(-32602, `invalid transaction: ${(e as Error).message}`);
  }
}

function faucetCall(run: () => string): RpcResult {
  try {
    return run();
  } catch (e) {
    if (e instanceof FaucetRefusal) throw new RpcError(-32602, `Invalid params: ${e.message}`);
    throw e;
  }
}

function requestAirdrop(ctx: RpcContext, params: unknown[]): RpcResult {
  const to = base58Param(params[0], 32);
  const lamports = params[1];
  if (typeof lamports !== "number" || !Number.isSafeInteger(lamports)) throw invalidParams("Invalid params: invalid type: expected u64 lamports");
  return faucetCall(() => ctx.faucet.airdrop(to, BigInt(lamports)));
}

/**
 * Local only, not a Solana method: [owner, mint, raw amount as a decimal
 * string] → the signature of a transaction that creates the owner's
 * associated token account if needed and mints the amount into it.
 */
function requestTokenAirdrop(ctx: RpcContext, params: unknown[]): RpcResult {
  const owner = base58Param(params[0], 32);
  const mint = base58Param(params[1], 32);
  const amount = params[2];
  if (typeof amount !== "string" || !/^[0-9]{1,30}$/.test(amount)) throw invalidParams("Invalid params: the amount is a decimal string of raw token units");
  return faucetCall(() => ctx.faucet.tokenAirdrop(owner, mint, BigInt(amount)));
}

export const TRANSACTION_METHODS: Record<string, Handler> = { simulateTransaction, sendTransaction, requestAirdrop, requestTokenAirdrop };
