import bs58 from "bs58";
import type { Commitment, Ledger, LedgerTransaction, SlotRecord } from "./ledger";
import { type AccountWatch, accountChanges, watchAccount } from "./pubsub-accounts";
import { accountEncoding, dataSlice } from "./rpc-accounts";
import { RpcError } from "./rpc-params";

/**
 * The Solana PubSub subscriptions the local cluster serves, in a validator's
 * message shapes (https://solana.com/docs/rpc/websocket): logsSubscribe,
 * signatureSubscribe, slotSubscribe, accountSubscribe (pubsub-accounts.ts)
 * and their unsubscribes.
 *
 * When a notification goes out follows the ledger's commitment model: a
 * transaction is confirmed (and processed) as soon as it lands in the tip
 * block, finalized once its slot is FINALITY_DEPTH behind; a node playing
 * "behind" shows both later. A rollback drops the unfinalized tail: what was
 * sent at confirmed for it stays sent, as on a real validator (optimistic
 * confirmation is not retracted), finalized subscribers never hear of it, and
 * the replacing fork's transactions are notified as they land.
 */

export type Send = (message: string) => void;

export class PubSubError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

type LogsFilter = { kind: "all" } | { kind: "mentions"; address: string };

type Subscription =
  | { id: number; send: Send; kind: "logs"; commitment: Commitment; filter: LogsFilter }
  | { id: number; send: Send; kind: "signature"; commitment: Commitment; signature: string; received: boolean }
  | { id: number; send: Send; kind: "slot" }
  | { id: number; send: Send; kind: "account"; commitment: Commitment; watch: AccountWatch };

type WithoutId<T> = T extends unknown ? Omit<T, "id"> : never;

const UNSUBSCRIBE: Record<string, Subscription["kind"]> = {
  logsUnsubscribe: "logs",
  signatureUnsubscribe: "signature",
  slotUnsubscribe: "slot",
  accountUnsubscribe: "account",
};

const invalid = (message: string) => new PubSubError(-32602, message);

function configOf(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) throw invalid("Invalid params: invalid type: expected struct");
  return value as Record<string, unknown>;
}

/** Subscriptions default to finalized, as a validator's do. */
function commitmentOf(config: Record<string, unknown>): Commitment {
  const c = config.commitment ?? "finalized";
  if (c === "processed" || c === "recent") return "processed";
  if (c === "confirmed" || c === "single" || c === "singleGossip") return "confirmed";
  if (c === "finalized" || c === "root" || c === "max") return "finalized";
  throw invalid(`Invalid params: unknown variant \`${String(c)}\`, expected one of \`processed\`, \`confirmed\`, \`finalized\``);
}

function decodedLength(value: string): number {
  try {
    return bs58.decode(value).length;
  } catch {
    return -1;
  }
}

function logsFilterOf(value: unknown): LogsFilter {
  if (value === "all" || value === "allWithVotes") return { kind: "all" };
  const mentions = (value as { mentions?: unknown } | null)?.mentions;
  if (!Array.isArray(mentions)) throw invalid("Invalid params: unknown variant, expected `all`, `allWithVotes` or `{ mentions: [address] }`");
  if (mentions.length !== 1) throw invalid("Invalid Request: Only 1 address supported");
  const address = mentions[0];
  if (typeof address !== "string" || decodedLength(address) !== 32) throw invalid("Invalid Request: Invalid pubkey provided");
  return { kind: "mentions", address };
}

/** The account methods' parameter checks throw the RPC's error; on the socket it is the same code and message. */
function asPubSubError<T>(read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof RpcError) throw new PubSubError(e.code, e.message);
    throw e;
  }
}

const notification = (method: string, subscription: number, result: string) =>
  `{"jsonrpc":"2.0","method":"${method}","params":{"result":${result},"subscription":${subscription}}}`;

/** The subscriptions of every connection, fed by the ledger's events. */
export class PubSub {
  private nextId = 0;
  private readonly subscriptions = new Map<number, Subscription>();
  /** Per commitment, how many of the ledger's transactions have been notified. */
  private readonly notified: Record<Commitment, number>;

  constructor(private readonly ledger: Ledger) {
    const length = ledger.transactions.length;
    this.notified = { processed: length, confirmed: length, finalized: length };
    ledger.listeners.opened.push((record) => {
      this.notifySlot(record);
      this.flush();
    });
    ledger.listeners.appended.push((tx) => {
      this.notifyReceived(tx);
      this.flush();
    });
    ledger.listeners.rolledBack.push(() => {
      const length = this.ledger.transactions.length;
      for (const c of ["processed", "confirmed", "finalized"] as const) this.notified[c] = Math.min(this.notified[c], length);
    });
  }

  get count(): number {
    return this.subscriptions.size;
  }

  /** Handles one call; returns the result's JSON or throws a PubSubError. */
  call(method: string, params: unknown, send: Send): string {
    const list = params === undefined || params === null ? [] : params;
    if (!Array.isArray(list)) throw invalid("Invalid params: expected an array");
    switch (method) {
      case "logsSubscribe": {
        const filter = logsFilterOf(list[0]);
        return String(this.add({ kind: "logs", send, filter, commitment: commitmentOf(configOf(list[1])) }));
      }
      case "signatureSubscribe": {
        const signature = list[0];
        if (typeof signature !== "string" || decodedLength(signature) !== 64) throw invalid("Invalid Request: Invalid signature provided");
        const config = configOf(list[1]);
        return String(this.add({ kind: "signature", send, signature, commitment: commitmentOf(config), received: config.enableReceivedNotification === true }));
      }
      case "slotSubscribe":
        return String(this.add({ kind: "slot", send }));
      case "accountSubscribe": {
        const address = list[0];
        if (typeof address !== "string" || decodedLength(address) !== 32) throw invalid("Invalid Request: Invalid pubkey provided");
        const config = configOf(list[1]);
        const commitment = commitmentOf(config);
        const watch = watchAccount(this.ledger, address, asPubSubError(() => accountEncoding(config)), asPubSubError(() => dataSlice(config)), this.ledger.visibleSlot(commitment));
        return String(this.add({ kind: "account", send, commitment, watch }));
      }
      default: {
        const kind = Object.hasOwn(UNSUBSCRIBE, method) ? UNSUBSCRIBE[method] : undefined;
        if (!kind) throw new PubSubError(-32601, "Method not found");
        const id = list[0];
        const subscription = typeof id === "number" ? this.subscriptions.get(id) : undefined;
        if (!subscription || subscription.kind !== kind || subscription.send !== send) throw invalid("Invalid subscription id.");
        this.subscriptions.delete(subscription.id);
        return "true";
      }
    }
  }

  /** Ends every subscription of a connection that closed. */
  dropConnection(send: Send): void {
    for (const [id, s] of this.subscriptions) if (s.send === send) this.subscriptions.delete(id);
  }

  private add(subscription: WithoutId<Subscription>): number {
    const id = this.nextId++;
    this.subscriptions.set(id, { ...subscription, id } as Subscription);
    return id;
  }

  private notifySlot(record: SlotRecord): void {
    const result = `{"parent":${record.parentSlot},"root":${this.ledger.finalizedSlot},"slot":${record.slot}}`;
    for (const s of this.subscriptions.values()) if (s.kind === "slot") s.send(notification("slotNotification", s.id, result));
  }

  /** `enableReceivedNotification`: the node has the transaction, before any commitment. */
  private notifyReceived(tx: LedgerTransaction): void {
    for (const s of this.subscriptions.values()) {
      if (s.kind !== "signature" || !s.received || s.signature !== tx.signature) continue;
      s.send(notification("signatureNotification", s.id, `{"context":{"slot":${tx.slot}},"value":"receivedSignature"}`));
    }
  }

  /** Sends, per commitment, what has newly become visible at it. */
  private flush(): void {
    const transactions = this.ledger.transactions;
    for (const commitment of ["processed", "confirmed", "finalized"] as const) {
      const visible = this.ledger.visibleSlot(commitment);
      let position = this.notified[commitment];
      while (position < transactions.length && (transactions[position] as LedgerTransaction).slot <= visible) {
        const tx = transactions[position] as LedgerTransaction;
        // Ended or replaced subscriptions are cheap to skip; the cursor moves on either way.
        if (this.subscriptions.size > 0) this.notifyTransaction(tx, commitment);
        position++;
      }
      this.notified[commitment] = position;
      this.notifyAccounts(commitment, visible);
    }
  }

  private notifyAccounts(commitment: Commitment, visible: number): void {
    for (const s of this.subscriptions.values()) {
      if (s.kind !== "account" || s.commitment !== commitment) continue;
      for (const change of accountChanges(this.ledger, s.watch, visible)) {
        s.send(notification("accountNotification", s.id, `{"context":{"slot":${change.slot}},"value":${change.value}}`));
      }
    }
  }

  private notifyTransaction(tx: LedgerTransaction, commitment: Commitment): void {
    let logsResult: string | null = null;
    for (const s of [...this.subscriptions.values()]) {
      if (s.kind === "slot" || s.kind === "account" || s.commitment !== commitment) continue;
      if (s.kind === "signature") {
        if (s.signature !== tx.signature) continue;
        s.send(notification("signatureNotification", s.id, `{"context":{"slot":${tx.slot}},"value":{"err":${tx.errJson}}}`));
        // A signature subscription ends with its notification.
        this.subscriptions.delete(s.id);
        continue;
      }
      if (s.filter.kind === "mentions" && !tx.addresses.includes(s.filter.address)) continue;
      logsResult ??= `{"context":{"slot":${tx.slot}},"value":{"signature":"${tx.signature}","err":${tx.errJson},"logs":${JSON.stringify(tx.pruned ? [] : tx.result.logMessages)}}}`;
      s.send(notification("logsNotification", s.id, logsResult));
    }
  }
}
