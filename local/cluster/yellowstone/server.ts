import { Server, ServerCredentials, status, type ServerDuplexStream } from "@grpc/grpc-js";
import { CommitmentLevel, geyserService, SlotStatus, type SubscribeRequest, type SubscribeUpdate } from "../../../lib/geyser/service";
import type { Ledger } from "../ledger";
import type { LedgerTransaction } from "../ledger-types";
import { blockMetaUpdate, transactionUpdate } from "./encode";

/**
 * The local cluster's Yellowstone (Geyser gRPC) server, on loopback: a
 * subscriber's transaction filters (accountInclude, failed, vote), its slot
 * and block-meta filters, at its commitment, from the ledger. Each slot, once
 * visible at the commitment, is sent as its matching transactions in order,
 * its block meta, then its slot status. A rolled-back slot already told is
 * told dead (SLOT_DEAD). `from_slot` replays the last `replaySlots` slots;
 * older is refused as a validator's plugin refuses it. Pings every `pingMs`;
 * a client's ping is answered with a pong. Test hooks: drop every stream,
 * refuse new ones, go silent.
 */
export interface YellowstoneOptions {
  host?: string;
  port?: number;
  /** Slots a `from_slot` may reach back. Default 300. */
  replaySlots?: number;
  pingMs?: number;
}

export interface YellowstoneStats {
  subscribes: number;
  replays: number;
  replaysRefused: number;
  transactionsSent: number;
}

export interface YellowstoneServer {
  url: string;
  port: number;
  readonly stats: YellowstoneStats;
  /** Open subscriptions. */
  subscribers(): number;
  /** Ends every stream with UNAVAILABLE, as a load balancer's restart does. */
  dropAll(): void;
  /** While false, new subscriptions are refused with UNAVAILABLE. */
  setAccepting(accepting: boolean): void;
  /** While true, the streams stay open but nothing is sent, not even pings. */
  setSilent(silent: boolean): void;
  setReplaySlots(slots: number): void;
  stop(): Promise<void>;
}

type Call = ServerDuplexStream<SubscribeRequest, SubscribeUpdate>;

interface Subscriber {
  call: Call;
  commitment: "confirmed" | "finalized";
  /** Filter names and what they ask, null until the first request. */
  transactions: { name: string; accountInclude: string[]; failed: boolean | undefined } | null;
  slotsFilter: string | null;
  blocksMetaFilter: string | null;
  /** The ledger position of the next transaction to consider. */
  cursor: number;
  /** The last slot told (transactions, meta, status). */
  told: number;
  /** A fresh subscription is told where it starts: the status of the slot it starts after. */
  tellStart: boolean;
}

export async function startYellowstone(ledger: Ledger, options: YellowstoneOptions = {}): Promise<YellowstoneServer> {
  let replaySlots = options.replaySlots ?? 300;
  let accepting = true;
  let silent = false;
  const subscribers = new Set<Subscriber>();
  const stats: YellowstoneStats = { subscribes: 0, replays: 0, replaysRefused: 0, transactionsSent: 0 };

  const firstPositionAfter = (slot: number): number => {
    const txs = ledger.transactions;
    let lo = 0;
    let hi = txs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((txs[mid] as LedgerTransaction).slot <= slot) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  const matches = (sub: Subscriber, tx: LedgerTransaction): boolean => {
    const f = sub.transactions;
    if (!f) return false;
    if (f.failed === false && tx.result.err !== null) return false;
    return f.accountInclude.length === 0 || f.accountInclude.some((a) => tx.addresses.includes(a));
  };

  /** Tells a subscriber every slot newly visible at its commitment. */
  const pump = (sub: Subscriber) => {
    if (silent || !sub.transactions) return;
    if (sub.tellStart && sub.slotsFilter) {
      // A validator's plugin sends slot updates every 400 ms anyway; a quiet local ledger would send none.
      sub.call.write(slotUpdate(sub.told, ledger.slot(sub.told)?.parentSlot, sub.commitment === "finalized" ? SlotStatus.SLOT_FINALIZED : SlotStatus.SLOT_CONFIRMED, sub.slotsFilter));
    }
    sub.tellStart = false;
    const visible = ledger.visibleSlot(sub.commitment);
    const txs = ledger.transactions;
    for (let slot = sub.told + 1; slot <= visible; slot++) {
      const record = ledger.slot(slot);
      if (!record) continue; // skipped by its leader
      for (; sub.cursor < txs.length && (txs[sub.cursor] as LedgerTransaction).slot <= slot; sub.cursor++) {
        const tx = txs[sub.cursor] as LedgerTransaction;
        if (tx.slot < slot || !matches(sub, tx)) continue;
        sub.call.write(transactionUpdate(ledger, tx, tx.position - record.firstPosition, [sub.transactions.name]));
        stats.transactionsSent++;
      }
      if (sub.blocksMetaFilter) sub.call.write(blockMetaUpdate(record, [sub.blocksMetaFilter]));
      if (sub.slotsFilter) sub.call.write(slotUpdate(slot, record.parentSlot, sub.commitment === "finalized" ? SlotStatus.SLOT_FINALIZED : SlotStatus.SLOT_CONFIRMED, sub.slotsFilter));
    }
    sub.told = Math.max(sub.told, visible);
  };

  let scheduled = false;
  const pumpSoon = () => {
    if (scheduled) return;
    scheduled = true;
    // After the block's transactions, appended in the same turn, are all there.
    setImmediate(() => {
      scheduled = false;
      for (const sub of subscribers) pump(sub);
    });
  };
  const onOpened = () => pumpSoon();
  const onAppended = () => pumpSoon();
  const onRolledBack = (_removed: LedgerTransaction[], toSlot: number) => {
    for (const sub of subscribers) {
      if (sub.told > toSlot && sub.slotsFilter && !silent) {
        for (let slot = toSlot + 1; slot <= sub.told; slot++) sub.call.write({ ...slotUpdate(slot, undefined, SlotStatus.SLOT_DEAD, sub.slotsFilter), });
      }
      sub.told = Math.min(sub.told, toSlot);
      sub.cursor = Math.min(sub.cursor, firstPositionAfter(toSlot));
    }
    pumpSoon();
  };
  ledger.listeners.opened.push(onOpened);
  ledger.listeners.appended.push(onAppended);
  ledger.listeners.rolledBack.push(onRolledBack);

  const subscribe = (call: Call) => {
    if (!accepting) {
      call.emit("error", { code: status.UNAVAILABLE, details: "the local Yellowstone server refuses subscriptions (test hook)" });
      return;
    }
    stats.subscribes++;
    const sub: Subscriber = { call, commitment: "confirmed", transactions: null, slotsFilter: null, blocksMetaFilter: null, cursor: 0, told: 0, tellStart: false };
    subscribers.add(sub);
    call.on("data", (request: SubscribeRequest) => {
      if (request.ping) {
        call.write({ filters: [], createdAt: new Date(), pong: { id: request.ping.id } });
        return;
      }
      const commitment = request.commitment === CommitmentLevel.FINALIZED ? "finalized" : "confirmed";
      const visible = ledger.visibleSlot(commitment);
      let told = sub.transactions ? sub.told : visible;
      if (request.fromSlot !== undefined) {
        const fromSlot = Number(request.fromSlot);
        const oldest = Math.max(ledger.tip.slot - replaySlots, ledger.firstAvailableSlot);
        if (fromSlot < oldest) {
          stats.replaysRefused++;
          subscribers.delete(sub);
          call.emit("error", { code: status.INVALID_ARGUMENT, details: `broadcast from ${fromSlot} is not available, last available: ${oldest}` });
          return;
        }
        stats.replays++;
        told = Math.min(fromSlot - 1, visible);
      }
      const [name, filter] = Object.entries(request.transactions)[0] ?? [];
      sub.commitment = commitment;
      sub.transactions = filter && name ? { name, accountInclude: filter.accountInclude, failed: filter.failed } : { name: "none", accountInclude: ["-"], failed: false };
      sub.slotsFilter = Object.keys(request.slots)[0] ?? null;
      sub.blocksMetaFilter = Object.keys(request.blocksMeta)[0] ?? null;
      sub.told = told;
      sub.cursor = firstPositionAfter(told);
      sub.tellStart = request.fromSlot === undefined;
      pump(sub);
    });
    const end = () => subscribers.delete(sub);
    call.on("end", () => {
      end();
      call.end();
    });
    call.on("cancelled", end);
    call.on("error", end);
  };

  const server = new Server();
  server.addService(geyserService, { subscribe });
  const host = options.host ?? "127.0.0.1";
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${host}:${options.port ?? 0}`, ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  const pinger = setInterval(() => {
    if (silent) return;
    for (const sub of subscribers) sub.call.write({ filters: [], createdAt: new Date(), ping: {} });
  }, options.pingMs ?? 10_000);
  pinger.unref();

  return {
    url: `http://${host}:${port}`,
    port,
    stats,
    subscribers: () => subscribers.size,
    dropAll: () => {
      for (const sub of [...subscribers]) {
        subscribers.delete(sub);
        sub.call.emit("error", { code: status.UNAVAILABLE, details: "dropped by the local Yellowstone server (test hook)" });
      }
    },
    setAccepting: (value) => {
      accepting = value;
    },
    setSilent: (value) => {
      silent = value;
      if (!silent) for (const sub of subscribers) pump(sub);
    },
    setReplaySlots: (slots) => {
      replaySlots = slots;
    },
    stop: async () => {
      clearInterval(pinger);
      const remove = <T>(list: T[], item: T) => list.splice(list.indexOf(item), 1);
      remove(ledger.listeners.opened, onOpened);
      remove(ledger.listeners.appended, onAppended);
      remove(ledger.listeners.rolledBack, onRolledBack);
      server.forceShutdown();
    },
  };
}

function slotUpdate(slot: number, parent: number | undefined, slotStatus: SlotStatus, filter: string): SubscribeUpdate {
  return { filters: [filter], createdAt: new Date(), slot: { slot: String(slot), parent: parent === undefined ? undefined : String(parent), status: slotStatus } };
}
