import { expectedState, type ExpectedState } from "./expected";
import { Faucet } from "./faucet";
import { type FaultConfig, FaultInjector } from "./faults";
import { checkHeaderAgainst, JOURNAL_FORMAT, type JournalHeader, JournalWriter, readJournalHeader, replayJournal, type ReplayResult, writeJournal } from "./journal";
import { Ledger, type LedgerTransaction } from "./ledger";
import { PubSub } from "./pubsub";
import { listenBoth } from "./listen";
import { PubSubServer } from "./pubsub-server";
import type { RpcContext } from "./rpc";
import { type AdminRoutes, RpcServer, type ServerStats } from "./server";
import { ACTIVITY_KINDS, type ActivityKind, DemoTraders } from "./demo-traders";
import { parseWireTransaction } from "./wire";
import { World } from "./world";

export interface LocalClusterOptions {
  /** Everything (keys, ledger, activity) derives from it; same seed, same options → same signatures. Default "localnet". */
  seed?: string;
  /** 0 picks a free port. Default 0. */
  port?: number;
  /**
   * `port` is only preferred (no port was asked for): when it or its + 1 is
   * in use, listen on another pair, the kernel's choice, instead of failing
   * (`takenPort` then says which was in use). Default false.
   */
  portFallback?: boolean;
  /**
   * The PubSub WebSocket's own port. Default: the RPC port + 1, where
   * @solana/web3.js looks for it (with port 0, a free pair is found).
   * The WebSocket is also served on the RPC port through the HTTP upgrade.
   */
  wsPort?: number;
  host?: string;
  /** Transactions generated before the server starts. Default 0. */
  history?: number;
  /** Average transactions per block while generating history. Default 4. */
  historyPerSlot?: number;
  /** Keep producing blocks every slotMs, with simulated activity at txPerSecond. Default false. */
  live?: boolean;
  txPerSecond?: number;
  slotMs?: number;
  /** Block time (unix ms) of the first slot. Default: so that the history ends about now. Fix it for deterministic signatures. */
  genesisUnixMs?: number;
  firstSlot?: number;
  makers?: number;
  takers?: number;
  crankers?: number;
  /** Share of simulated transactions that are v0 with lookup tables. Default 0.2. */
  v0Share?: number;
  targetActiveOffers?: number;
  programId?: string;
  treasury?: string;
  faults?: FaultConfig | null;
  behindSlots?: number;
  /**
   * Keep transactions past the undo window (512 slots) as bytes only, off the
   * JS heap (archive.ts): a million-transaction ledger then serves at the cost
   * of a small one. Their `signed` is null and their result keeps only err,
   * fee, memo and effects. Default false.
   */
  archiveHistory?: boolean;
  /** Sign the history on a worker thread (faster for large histories). Default: when history >= 5000. */
  parallelSigning?: boolean;
  /**
   * Keep the ledger in this directory (created if missing): a start finding
   * one there continues that chain (same genesis hash, program, cast; `history`
   * is not built again) from the next slot. Unset: the ledger lives in memory only.
   */
  dataDir?: string;
}

export interface RollbackOptions {
  /** Drop blocks after this slot; default the finalized slot (the whole unfinalized tail). */
  toSlot?: number;
  /** Then build this many new blocks of different activity in their place (a fork). Default: as many as were dropped. */
  replaceSlots?: number;
}

export interface RollbackResult {
  removedSignatures: string[];
  addedSignatures: string[];
  fromSlot: number;
  tipSlot: number;
}

export interface LocalCluster {
  url: string;
  port: number;
  /** The PubSub WebSocket (ws://host:wsPort). */
  wsUrl: string;
  wsPort: number;
  /** With `portFallback`, the preferred port (or its + 1) found in use, when another pair was taken; else null. */
  takenPort: number | null;
  programId: string;
  treasury: string;
  routerProgramId: string;
  /** The variables a worker or app needs to use this cluster. */
  env: { SOLANA_RPC_URL: string; SOLANA_WS_URL: string; PROGRAM_ID: string; TREASURY_ADDRESS: string };
  ledger: Ledger;
  world: World;
  simulator: DemoTraders;
  /** Lands requestAirdrop's and requestTokenAirdrop's transactions. */
  faucet: Faucet;
  /** Set when the ledger was continued from `dataDir`: what was replayed. */
  resumed: ReplayResult | null;
  stats(): ServerStats;
  /** Fail requests as configured; null stops. */
  setFaults(config: FaultConfig | null): void;
  /** Pretend the node lags `slots` behind its tip (0 = healthy). */
  setBehind(slots: number): void;
  /** Take the PubSub WebSocket down (connections cut, new ones refused) or bring it back. */
  setWebsocketDown(down: boolean): void;
  rollback(options?: RollbackOptions): RollbackResult;
  /** Forget history below a slot, or keep only the newest N transactions. Returns the first available slot. */
  prune(options: { beforeSlot?: number; keepTransactions?: number }): number;
  pause(): void;
  resume(): void;
  setRate(txPerSecond: number): void;
  /** Produces a new block holding `count` simulated transactions of `kind` (or mixed); returns them. */
  append(kind?: ActivityKind, count?: number): LedgerTransaction[];
  /** Appends a signed wire transaction in a new block, verifying its signatures. */
  submit(wire: Uint8Array): LedgerTransaction;
  /** Produces empty blocks, e.g. to move finality past earlier ones. */
  advanceSlots(count: number): number;
  expectedState(options?: { slot?: number; commitment?: "confirmed" | "finalized" }): ExpectedState;
  stop(): Promise<void>;
}

/** Starts the local Solana JSON-RPC stand-in with its ledger and simulator. */
export async function startLocalCluster(options: LocalClusterOptions = {}): Promise<LocalCluster> {
  const kept = options.dataDir ? readJournalHeader(options.dataDir) : null;
  if (kept && options.dataDir) checkHeaderAgainst(kept, options.dataDir, options);
  const seed = kept?.seed ?? options.seed ?? "localnet";
  const slotMs = kept?.slotMs ?? options.slotMs ?? 400;
  const history = kept ? 0 : (options.history ?? 0);
  const perSlot = options.historyPerSlot ?? 4;
  const genesisUnixMs = kept?.genesisUnixMs ?? options.genesisUnixMs ?? Date.now() - Math.ceil(history / perSlot) * slotMs;

  const world = new World({
    seed,
    makers: kept?.makers ?? options.makers ?? 40,
    takers: kept?.takers ?? options.takers ?? 60,
    crankers: kept?.crankers ?? options.crankers ?? 3,
    programId: kept?.programId ?? options.programId,
    treasury: kept?.treasury ?? options.treasury,
  });
  const firstSlot = kept?.firstSlot ?? options.firstSlot ?? 250_000_000;
  const ledger = new Ledger({ seed, programs: world.programs, firstSlot, genesisUnixMs, slotMs, archiveHistory: options.archiveHistory });
  world.installGenesis(ledger);
  const simulator = new DemoTraders(world, ledger, {
    seed,
    v0Share: kept?.v0Share ?? options.v0Share ?? 0.2,
    targetActiveOffers: kept?.targetActiveOffers ?? options.targetActiveOffers ?? 300,
  });
  let resumed: ReplayResult | null = null;
  if (kept && options.dataDir) {
    resumed = replayJournal(options.dataDir, ledger);
    simulator.resumeAfterReplay();
  } else if (history > 0) {
    if (options.parallelSigning ?? history >= 5_000) await simulator.generateParallel(history, perSlot);
    else simulator.generate(history, perSlot);
  }
  if (options.dataDir && !kept) {
    const header: JournalHeader = {
      format: JOURNAL_FORMAT,
      seed,
      genesisHash: ledger.genesisHash,
      genesisUnixMs,
      firstSlot,
      slotMs,
      ...world.programs,
      makers: world.makers.length,
      takers: world.takers.length,
      crankers: world.crankers.length,
      v0Share: simulator.options.v0Share,
      targetActiveOffers: simulator.options.targetActiveOffers,
    };
    writeJournal(options.dataDir, header, ledger);
  }
  const journal = options.dataDir ? new JournalWriter(options.dataDir, ledger) : null;

  const faults = new FaultInjector(seed);
  faults.configure(options.faults ?? null);
  ledger.behindSlots = options.behindSlots ?? 0;

  let paused = false;
  let txPerSecond = options.txPerSecond ?? 3;
  /** A new block now: at the wall-clock slot when live, else right after the tip. */
  const nextSlot = () => (options.live ? Math.max(ledger.tip.slot + 1, ledger.slotAt(Date.now())) : ledger.tip.slot + 1);
  const openBlock = () => ledger.openSlot(nextSlot());

  const submit = (wire: Uint8Array): LedgerTransaction => {
    const signed = parseWireTransaction(wire);
    openBlock();
    return ledger.append(signed, { verifySignatures: true });
  };
  const faucet = new Faucet(world, ledger, submit);
  const nextBlock = () => {
    const slot = nextSlot();
    return { slot, blockTime: ledger.blockTimeOf(slot) };
  };
  const ctx: RpcContext = { ledger, submit, faucet, nextBlock };

  const cluster: Omit<LocalCluster, "url" | "port" | "wsUrl" | "wsPort" | "takenPort" | "env" | "stop"> = {
    programId: world.programs.programId,
    treasury: world.programs.treasury,
    routerProgramId: world.programs.routerProgramId,
    ledger,
    world,
    simulator,
    faucet,
    resumed,
    stats: () => server.stats,
    setFaults: (config) => faults.configure(config),
    setBehind: (slots) => {
      ledger.behindSlots = slots;
    },
    setWebsocketDown: (down) => pubsubServer.setDown(down),
    rollback: (rollbackOptions = {}) => {
      const fromSlot = ledger.tip.slot;
      const removed = ledger.rollback(rollbackOptions.toSlot);
      const replaceSlots = rollbackOptions.replaceSlots ?? new Set(removed.map((t) => t.slot)).size;
      const added: LedgerTransaction[] = [];
      for (let i = 0; i < replaceSlots; i++) {
        ledger.openSlot();
        added.push(...simulator.fillTip(Math.max(1, Math.round(perSlot / 2))));
      }
      return { removedSignatures: removed.map((t) => t.signature), addedSignatures: added.map((t) => t.signature), fromSlot, tipSlot: ledger.tip.slot };
    },
    prune: ({ beforeSlot, keepTransactions }) => {
      let slot = beforeSlot;
      if (keepTransactions !== undefined) {
        const keepFrom = ledger.transactions[Math.max(0, ledger.transactions.length - keepTransactions)];
        slot = keepFrom?.slot ?? ledger.tip.slot;
      }
      if (slot === undefined) throw new Error("prune needs beforeSlot or keepTransactions");
      ledger.prune(slot);
      return ledger.firstAvailableSlot;
    },
    pause: () => {
      paused = true;
    },
    resume: () => {
      paused = false;
    },
    setRate: (rate) => {
      txPerSecond = rate;
    },
    append: (kind, count = 1) => {
      openBlock();
      const out: LedgerTransaction[] = [];
      for (let i = 0; i < count; i++) {
        const tx = simulator.step(kind);
        if (tx) out.push(tx);
      }
      return out;
    },
    submit,
    advanceSlots: (count) => {
      for (let i = 0; i < count; i++) openBlock();
      return ledger.tip.slot;
    },
    expectedState: (stateOptions = {}) =>
      expectedState(ledger, stateOptions.slot ?? ledger.visibleSlot(stateOptions.commitment ?? "confirmed")),
  };

  const admin: AdminRoutes = {
    info: () => ({
      programId: cluster.programId,
      treasury: cluster.treasury,
      routerProgramId: cluster.routerProgramId,
      seed,
      genesisHash: ledger.genesisHash,
      dataDir: options.dataDir ?? null,
      tipSlot: ledger.tip.slot,
      finalizedSlot: ledger.finalizedSlot,
      firstAvailableSlot: ledger.firstAvailableSlot,
      transactions: ledger.transactions.length,
      activeOffers: simulator.activeOfferCount,
      paused,
      txPerSecond,
      behindSlots: ledger.behindSlots,
      faults: faults.current,
    }),
    stats: () => server.stats,
    faults: (input) => {
      const config = Object.keys(input).length === 0 || input.clear ? null : (input as FaultConfig);
      cluster.setFaults(config);
      return { faults: config };
    },
    behind: (input) => {
      cluster.setBehind(Number(input.slots ?? 0));
      return { behindSlots: ledger.behindSlots };
    },
    rollback: (input) =>
      cluster.rollback({
        toSlot: input.toSlot === undefined ? undefined : Number(input.toSlot),
        replaceSlots: input.replaceSlots === undefined ? undefined : Number(input.replaceSlots),
      }),
    prune: (input) => ({
      firstAvailableSlot: cluster.prune({
        beforeSlot: input.beforeSlot === undefined ? undefined : Number(input.beforeSlot),
        keepTransactions: input.keepTransactions === undefined ? undefined : Number(input.keepTransactions),
      }),
    }),
    simulator: (input) => {
      if (input.paused === true || input.paused === "true") cluster.pause();
      if (input.paused === false || input.paused === "false") cluster.resume();
      if (input.txPerSecond !== undefined) cluster.setRate(Number(input.txPerSecond));
      return { paused, txPerSecond };
    },
    append: (input) => {
      if (typeof input.transaction === "string") return { signatures: [cluster.submit(new Uint8Array(Buffer.from(input.transaction, "base64"))).signature] };
      const kind = input.kind as ActivityKind | undefined;
      if (kind !== undefined && !ACTIVITY_KINDS.includes(kind)) throw new Error(`unknown kind ${kind}; one of ${ACTIVITY_KINDS.join(", ")}`);
      return { signatures: cluster.append(kind, Number(input.count ?? 1)).map((t) => t.signature) };
    },
    advance: (input) => ({ tipSlot: cluster.advanceSlots(Number(input.slots ?? 1)) }),
    websocket: (input) => {
      if (input.down !== undefined) cluster.setWebsocketDown(input.down === true || input.down === "true");
      return { down: pubsubServer.isDown, connections: pubsubServer.connections, subscriptions: pubsubServer.pubsub.count };
    },
    expected: (input) => {
      const commitment = input.commitment === "finalized" ? "finalized" : "confirmed";
      const state = cluster.expectedState({ commitment });
      return {
        slot: state.slot,
        offers: [...state.offers.values()],
        fills: state.fills,
      };
    },
  };

  // Subscriptions hear of what happens from here on, not of the history built above.
  const pubsubServer = new PubSubServer(new PubSub(ledger));
  const server = new RpcServer(ctx, faults, admin, (req, socket, head) => pubsubServer.upgrade(req, socket, head));
  const host = options.host ?? "127.0.0.1";
  const { port, wsPort, taken } = await listenBoth(server, pubsubServer, host, { port: options.port ?? 0, wsPort: options.wsPort, fallback: options.portFallback });
  const url = `http://${host}:${port}`;
  const wsUrl = `ws://${host}:${wsPort}`;

  let timer: NodeJS.Timeout | undefined;
  if (options.live) {
    timer = setInterval(() => {
      if (ledger.slotAt(Date.now()) <= ledger.tip.slot) return;
      openBlock();
      if (!paused) simulator.fillTip(simulator.arrivals((txPerSecond * slotMs) / 1000));
    }, slotMs);
  }

  return {
    ...cluster,
    url,
    port,
    wsUrl,
    wsPort,
    takenPort: taken,
    env: { SOLANA_RPC_URL: url, SOLANA_WS_URL: wsUrl, PROGRAM_ID: cluster.programId, TREASURY_ADDRESS: cluster.treasury },
    stop: async () => {
      if (timer) clearInterval(timer);
      await pubsubServer.close();
      await server.close();
      journal?.close();
    },
  };
}
