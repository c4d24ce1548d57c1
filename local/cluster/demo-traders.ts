import type { Ledger, LedgerTransaction } from "./ledger";
import { MarketActions } from "./market-actions";
import { MarketView } from "./market-view";
import { Prng } from "./prng";
import { SignerPool } from "./signer-pool";
import type { LocalMint } from "./tokens";
import type { World } from "./world";

export const ACTIVITY_KINDS = [
  "create",
  "take",
  "multi_take",
  "cpi_take",
  "cancel",
  "expire",
  "close",
  "failed_take",
  "failed_create",
  "failed_multi_take",
  "failed_cancel",
  "failed_close",
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

export interface DemoTradersOptions {
  seed: string;
  /** Share of transactions sent as v0 with lookup tables. */
  v0Share: number;
  /** The simulator creates more offers when fewer are active, fewer when more. */
  targetActiveOffers: number;
}

const BASE_WEIGHTS: Record<ActivityKind, number> = {
  create: 22,
  take: 28,
  multi_take: 5,
  cpi_take: 7,
  cancel: 5,
  expire: 8,
  close: 9,
  failed_take: 3,
  failed_create: 1,
  failed_multi_take: 1,
  failed_cancel: 0.5,
  failed_close: 0.5,
};

/**
 * Seeded market activity: makers post sell and buy offers across the token
 * and payment mints, takers fill them (alone, several per transaction, or via
 * the router's CPI), makers cancel and close, crankers expire lapsed offers,
 * and a few transactions fail as real ones do. Every transaction is signed and
 * executed by the ledger, which decides what it did.
 */
export class DemoTraders {
  private readonly view: MarketView;
  private readonly actions: MarketActions;
  private readonly tokenMints: LocalMint[];
  private readonly paymentMints: LocalMint[];
  readonly counts: Record<ActivityKind, number> = Object.fromEntries(ACTIVITY_KINDS.map((k) => [k, 0])) as Record<ActivityKind, number>;

  constructor(
    private readonly world: World,
    private readonly ledger: Ledger,
    readonly options: DemoTradersOptions,
  ) {
    this.tokenMints = world.mints.filter((m) => m.role === "token");
    this.paymentMints = world.mints.filter((m) => m.role === "payment");
    this.view = new MarketView(ledger);
    this.actions = new MarketActions(world, ledger, this.view, new Prng(`${options.seed}/simulator`), options.v0Share);
  }

  private get prng(): Prng {
    return this.actions.prng;
  }

  get activeOfferCount(): number {
    return this.view.active.size;
  }

  /** Rebuilds the view from the accounts, after a rollback took transactions back. */
  resync(): void {
    this.view.resync();
  }

  /**
   * After a replayed ledger: draws continue from a PRNG seeded by the seed and
   * where the ledger stands, so a continued chain does not repeat the first
   * run's choices and the same ledger always continues alike.
   */
  resumeAfterReplay(): void {
    this.actions.prng = new Prng(`${this.options.seed}/simulator/resume/${this.ledger.tip.slot}/${this.ledger.transactions.length}`);
    // Each token's price walk goes on from its last offer (within its ±3%), not from the reference price: no jump on the charts.
    const tokens = new Map(this.tokenMints.map((m) => [m.address, m]));
    const payments = new Map(this.paymentMints.map((m) => [m.address, m]));
    for (let p = this.ledger.transactions.length - 1; p >= 0 && this.view.drift.size < tokens.size; p--) {
      for (const effect of (this.ledger.transactions[p] as LedgerTransaction).result.effects) {
        if (effect.kind !== "create" || this.view.drift.has(effect.account.tokenMint)) continue;
        const token = tokens.get(effect.account.tokenMint);
        const payment = payments.get(effect.account.paymentMint);
        if (!token || !payment) continue;
        const human = (Number(effect.account.pricePerToken) / 10 ** effect.account.priceScale) * 10 ** (token.decimals - payment.decimals);
        const drift = (human * payment.referenceUsd) / token.referenceUsd;
        if (Number.isFinite(drift) && drift > 0) this.view.drift.set(token.address, Math.min(3, Math.max(0.33, drift)));
      }
    }
  }

  // ---- driving ------------------------------------------------------------------------------

  /** Produces `count` transactions in new blocks of ~`perSlot` transactions each. */
  generate(count: number, perSlot = 4): void {
    let produced = 0;
    while (produced < count) {
      this.ledger.openSlot();
      const inSlot = Math.min(count - produced, this.prng.poisson(perSlot));
      for (let i = 0; i < inSlot; i++) if (this.step()) produced++;
    }
  }

  /**
   * generate(), with the signing on a worker thread: ~2x faster for large
   * ledgers. Readers must not be served until it resolves, since transactions
   * lack their signatures in between.
   */
  async generateParallel(count: number, perSlot = 4, chunk = 2_000): Promise<void> {
    const pool = new SignerPool();
    const inflight: Array<Promise<void>> = [];
    const flush = () => {
      const batch = this.actions.deferred ?? [];
      this.actions.deferred = [];
      if (batch.length === 0) return;
      const jobs = batch.map((tx) => ({ message: tx.messageBytes as Uint8Array, signers: tx.pendingSigners ?? [] }));
      inflight.push(pool.sign(jobs).then((signatures) => batch.forEach((tx, i) => this.ledger.completeSigning(tx, signatures[i] ?? []))));
    };
    this.actions.deferred = [];
    try {
      let produced = 0;
      while (produced < count) {
        this.ledger.openSlot();
        const inSlot = Math.min(count - produced, this.prng.poisson(perSlot));
        for (let i = 0; i < inSlot; i++) if (this.step()) produced++;
        if (this.actions.deferred.length >= chunk) {
          flush();
          // Two batches in flight keep the worker busy without holding many unsigned transactions.
          if (inflight.length > 2) await inflight.shift();
        }
      }
      flush();
      await Promise.all(inflight);
    } finally {
      this.actions.deferred = null;
      await pool.close();
    }
  }

  /** How many transactions arrive in one block at a mean of `mean` (Poisson, seeded). */
  arrivals(mean: number): number {
    return this.prng.poisson(mean);
  }

  /** Adds `count` transactions to the tip block. */
  fillTip(count: number): LedgerTransaction[] {
    const out: LedgerTransaction[] = [];
    for (let i = 0; i < count; i++) {
      const tx = this.step();
      if (tx) out.push(tx);
    }
    return out;
  }

  /** One transaction of the given kind, or of a kind drawn by weight; null when that kind has nothing to act on. */
  step(kind?: ActivityKind): LedgerTransaction | null {
    const chosen = kind ?? this.chooseKind();
    const tx = this.build(chosen);
    if (tx) this.counts[chosen]++;
    else if (kind === undefined && chosen !== "create") return this.build("create");
    return tx;
  }

  private chooseKind(): ActivityKind {
    const weights = { ...BASE_WEIGHTS };
    const target = this.options.targetActiveOffers;
    if (this.view.active.size < target / 2) weights.create *= 3;
    else if (this.view.active.size > target * 1.5) weights.create /= 3;
    if (this.view.active.size === 0) for (const k of ["take", "multi_take", "cpi_take", "cancel", "failed_multi_take"] as const) weights[k] = 0;
    if (this.view.inactive.size === 0) weights.close = 0;
    const due = this.view.expiries.peek();
    if (!due || due[0] > this.actions.now()) weights.expire = 0;
    return this.prng.weighted(weights);
  }

  private build(kind: ActivityKind): LedgerTransaction | null {
    switch (kind) {
      case "create":
        return this.actions.create(false);
      case "failed_create":
        return this.actions.create(true);
      case "take":
        return this.actions.takes(1, { viaRouter: false });
      case "multi_take":
        return this.actions.takes(this.prng.range(2, 4), { viaRouter: false });
      case "cpi_take":
        return this.actions.takes(this.prng.range(1, 3), { viaRouter: true });
      case "failed_multi_take":
        return this.actions.takes(2, { viaRouter: this.prng.chance(0.5), overfill: true });
      case "failed_take":
        return this.actions.failedTake();
      case "cancel":
        return this.actions.cancel(false);
      case "failed_cancel":
        return this.actions.cancel(true);
      case "expire":
        return this.actions.expire();
      case "close":
        return this.actions.close(false);
      case "failed_close":
        return this.actions.close(true);
    }
  }

}
