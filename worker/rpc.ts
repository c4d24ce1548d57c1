import { Connection, PublicKey, type Commitment } from "@solana/web3.js";
import bs58 from "bs58";
import type { Logger } from "pino";
import { BASE58_ADDRESS, OFFER_ACCOUNT_DISCRIMINATOR, OFFER_ACCOUNT_SIZE, OFFER_FIELD_OFFSETS, stateToByte } from "../lib/program";
import { assertRawTransaction, type RawTransaction } from "../lib/program/raw-transaction";
import { sleep } from "../lib/resilience";
import { BatchRefusedError, createJsonRpc, resultOf, TRANSIENT_RPC_CODES } from "../lib/rpc/json-rpc";
import { retryKind, type WorkerMetrics } from "./metrics";
import type { OutageLog } from "./outage";
import { RateBudget } from "./rate-budget";
import { resilientFetch, ShutdownError } from "./resilient-fetch";
import { retryDelay } from "./retry-delay";

export interface RpcConfig {
  url: string;
  programId: string;
  commitment: "confirmed" | "finalized";
  rps: number;
  timeoutMs: number;
  concurrency: number;
  /** getTransaction as JSON-RPC batches: always, never, or until the node refuses one (auto). */
  batch: "auto" | "on" | "off";
  /** Calls in one batch. */
  batchSize: number;
  signal: AbortSignal;
  log: Logger;
  metrics?: WorkerMetrics;
  /** Told of every failure and answer; logs an outage once per interval. */
  outage?: OutageLog;
}

/** A getSignaturesForAddress entry, as the node sends it. */
export interface SignatureInfo {
  signature: string;
  slot: number;
  err: unknown;
  blockTime?: number | null;
}

export interface AccountRead {
  pda: string;
  /** null when the account does not exist (closed, or never created). */
  data: Uint8Array | null;
}

export type ProgramRpc = ReturnType<typeof createProgramRpc>;

const ADDRESS = new RegExp(`^${BASE58_ADDRESS}$`);

/** One getProgramAccounts entry in the `base64` encoding: its address and data; a node answering another shape is a node failing. */
function base64Account(entry: unknown): AccountRead {
  const { pubkey, account } = (entry ?? {}) as { pubkey?: unknown; account?: { data?: unknown } };
  const data = account?.data;
  if (typeof pubkey !== "string" || !ADDRESS.test(pubkey) || !Array.isArray(data) || typeof data[0] !== "string" || data[1] !== "base64") {
    throw new Error("getProgramAccounts returned an unexpected shape");
  }
  return { pda: pubkey, data: Buffer.from(data[0], "base64") };
}

/**
 * The program's view of a Solana RPC: the backfill's hot calls
 * (getTransaction, getSignaturesForAddress, getSignatureStatuses) and the
 * reconcile's getProgramAccounts as JSON-RPC text over the resilient fetch,
 * the rest over @solana/web3.js v1 through the same fetch. Transport failures are retried inside the fetch; JSON-RPC
 * errors that a retry can cure are retried here; the caller only ever sees answers.
 */
export function createProgramRpc(config: RpcConfig) {
  const { log, signal, metrics, outage } = config;
  let retries = 0;
  const budget = new RateBudget(config.rps);
  const send = resilientFetch({
    budget,
    timeoutMs: config.timeoutMs,
    signal,
    log,
    outage,
    onRetry: (reason) => {
      retries++;
      metrics?.retries.inc({ kind: retryKind(reason) });
    },
  });
  const connection = new Connection(config.url, { commitment: config.commitment, disableRetryOnRateLimit: true, fetch: send });
  const jsonRpc = createJsonRpc(config.url, send);
  let batching = config.batch !== "off";

  /**
   * Retries a call while its JSON-RPC error is transient, or it failed with no
   * JSON-RPC code at all (a body cut short or not JSON, a shape we do not
   * recognise): a node answering nonsense is treated as a node failing.
   */
  async function persist<T>(what: string, call: () => Promise<T>, calls = 1): Promise<T> {
    const method = what.split(" ")[0]!;
    for (let attempt = 0; ; attempt++) {
      try {
        const result = await call();
        metrics?.rpcRequests.inc({ method, outcome: "ok" }, calls);
        return result;
      } catch (error) {
        if (error instanceof ShutdownError || signal.aborted) throw new ShutdownError("the worker is shutting down");
        metrics?.rpcRequests.inc({ method, outcome: "error" }, calls);
        if (error instanceof BatchRefusedError) throw error;
        // A JSON-RPC error with a code no retry cures is the answer; an HTTP error (code null) or no code at all is retried.
        const code = (error as { code?: number | null }).code;
        if (code !== undefined && code !== null && !TRANSIENT_RPC_CODES.has(code)) throw error;
        retries++;
        metrics?.retries.inc({ kind: "rpc_error" });
        outage?.failed(error);
        log.debug({ what, err: (error as Error).message, attempt }, "rpc call failed; retrying");
        await sleep(retryDelay(attempt), signal);
      }
    }
  }

  const activeOffersParams = JSON.stringify([
    config.programId,
    {
      commitment: config.commitment,
      withContext: true,
      encoding: "base64",
      filters: [
        { dataSize: OFFER_ACCOUNT_SIZE },
        { memcmp: { offset: 0, bytes: bs58.encode(OFFER_ACCOUNT_DISCRIMINATOR) } },
        { memcmp: { offset: OFFER_FIELD_OFFSETS.state, bytes: bs58.encode([stateToByte("active")]) } },
      ],
    },
  ]);
  const txConfig = JSON.stringify({ encoding: "json", commitment: config.commitment, maxSupportedTransactionVersion: 0 });
  const getTransaction = (signature: string) => ({ method: "getTransaction", params: `["${signature}",${txConfig}]` });

  /** Transactions by signature as one batch request; each answer passed through `check`. */
  const transactionBatch = async <T>(signatures: string[], check: (value: unknown, signature: string) => T): Promise<T[]> => {
    const replies = await persist("getTransaction batch", async () => {
      const out = await jsonRpc.batch(signatures.map(getTransaction));
      return out.map((reply, i) => resultOf(reply, `getTransaction(${signatures[i]})`));
    }, signatures.length);
    return replies.map((value, i) => check(value, signatures[i]!));
  };

  /** One getTransaction call. */
  const transactionAlone = async <T>(signature: string, check: (value: unknown, signature: string) => T): Promise<T> => {
    const { params } = getTransaction(signature);
    const value = await persist("getTransaction", async () => resultOf(await jsonRpc.call("getTransaction", params), `getTransaction(${signature})`));
    return check(value, signature);
  };

  return {
    connection,
    /** Retries performed so far, transport and JSON-RPC. */
    retries: () => retries,

    /** One page of the program's signatures, newest first, strictly older than `before`. */
    async signaturesBefore(before: string | undefined, limit = 1000): Promise<SignatureInfo[]> {
      const params = JSON.stringify([config.programId, { limit, commitment: config.commitment, ...(before ? { before } : {}) }]);
      return persist("getSignaturesForAddress", async () => {
        const page = resultOf(await jsonRpc.call("getSignaturesForAddress", params), "getSignaturesForAddress");
        if (!Array.isArray(page) || page.some((s) => typeof (s as SignatureInfo)?.signature !== "string" || typeof (s as SignatureInfo)?.slot !== "number")) {
          throw new Error("getSignaturesForAddress returned an unexpected shape");
        }
        return page as SignatureInfo[];
      });
    },

    /**
     * Transactions by signature, in the order asked, each passed through
     * `read` as it arrives (so a large raw transaction is garbage at once and
     * only what `read` keeps lives on); null where the node does not have one.
     * Sent as batches of `batchSize` calls (or one call each once the node has
     * refused a batch, or with batches off), up to `concurrency` requests at a time.
     */
    async transactions<T>(signatures: string[], read: (raw: RawTransaction) => T): Promise<(T | null)[]> {
      if (signatures.length === 0) return [];
      const check = (value: unknown, signature: string): T | null => {
        if (value === null) return null;
        assertRawTransaction(value, signature);
        return read(value);
      };
      const results: (T | null)[] = new Array(signatures.length);
      let next = 0;
      const lane = async () => {
        while (next < signatures.length) {
          const start = next;
          if (batching) {
            next = Math.min(signatures.length, start + config.batchSize);
            const chunk = signatures.slice(start, next);
            try {
              const values = await transactionBatch(chunk, check);
              for (let i = 0; i < values.length; i++) results[start + i] = values[i]!;
              continue;
            } catch (error) {
              if (!(error instanceof BatchRefusedError) || config.batch === "on") throw error;
              if (batching) {
                batching = false;
                log.warn({ err: error.message }, "the RPC refused a batch of calls: one call per transaction from now on (RPC_BATCH=false skips the attempt, a smaller RPC_BATCH_SIZE may pass)");
              }
            }
            for (let i = start; i < next; i++) results[i] = await transactionAlone(signatures[i]!, check);
          } else {
            next = start + 1;
            results[start] = await transactionAlone(signatures[start]!, check);
          }
        }
      };
      const requests = batching ? Math.ceil(signatures.length / config.batchSize) : signatures.length;
      await Promise.all(Array.from({ length: Math.min(config.concurrency, requests) }, lane));
      return results;
    },

    /** Offer accounts by address, read together at one slot. */
    async offerAccounts(pdas: string[]): Promise<{ slot: bigint; accounts: AccountRead[] }> {
      const accounts: AccountRead[] = [];
      let slot = 0n;
      for (let start = 0; start < pdas.length; start += 100) {
        const chunk = pdas.slice(start, start + 100);
        const { context, value } = await persist("getMultipleAccounts", () =>
          connection.getMultipleAccountsInfoAndContext(chunk.map((p) => new PublicKey(p)), config.commitment),
        );
        slot = BigInt(context.slot);
        value.forEach((info, i) => accounts.push({ pda: chunk[i]!, data: info ? new Uint8Array(info.data) : null }));
      }
      return { slot, accounts };
    },

    /**
     * Every active Offer account of the program (memcmp on the discriminator and
     * on the state byte), and the slot read at. Ended offers cannot change again.
     * Through the JSON-RPC client, as the backfill's calls are: web3.js's
     * validation of the reply (superstruct) and a PublicKey per account cost
     * about a tenth of a short backfill's CPU for each reconcile (docs/benchmarks.md).
     */
    async activeOfferAccounts(): Promise<{ slot: bigint; accounts: AccountRead[] }> {
      return persist("getProgramAccounts", async () => {
        const reply = resultOf(await jsonRpc.call("getProgramAccounts", activeOffersParams), "getProgramAccounts") as { context?: { slot?: unknown }; value?: unknown };
        const slot = reply?.context?.slot;
        if (typeof slot !== "number" || !Array.isArray(reply.value)) throw new Error("getProgramAccounts returned an unexpected shape");
        return { slot: BigInt(slot), accounts: reply.value.map(base64Account) };
      });
    },

    slot(commitment: Commitment = config.commitment): Promise<number> {
      return persist("getSlot", () => connection.getSlot(commitment));
    },

    /** The chain's identity, retried like every other read (a faulty node must not pass for another chain, nor end the worker). */
    genesisHash(): Promise<string> {
      return persist("getGenesisHash", () => connection.getGenesisHash());
    },

    /** Whether the cluster still has each signature (null where it does not). */
    async statuses(signatures: string[]): Promise<(object | null)[]> {
      const out: (object | null)[] = [];
      for (let start = 0; start < signatures.length; start += 256) {
        const chunk = signatures.slice(start, start + 256);
        const value = await persist("getSignatureStatuses", async () => {
          const reply = resultOf(
            await jsonRpc.call("getSignatureStatuses", JSON.stringify([chunk, { searchTransactionHistory: true }])),
            "getSignatureStatuses",
          ) as { value?: unknown };
          if (!Array.isArray(reply?.value) || reply.value.length !== chunk.length) throw new Error("getSignatureStatuses returned an unexpected shape");
          return reply.value as (object | null)[];
        });
        out.push(...value);
      }
      return out;
    },
  };
}
