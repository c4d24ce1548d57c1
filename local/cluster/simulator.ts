import {
  cancelOfferInstruction,
  closeOfferInstruction,
  createOfferInstruction,
  type CreateOfferArgs,
  exactSizeStep,
  expireOfferInstruction,
  MAX_EXPIRY_SECONDS,
  type OfferAccount,
  type OfferSide,
  scaledPriceFromDecimal,
  takeOfferInstruction,
  U64_MAX,
} from "../../lib/program";
import type { LocalKeypair } from "./keys";
import type { Ledger, LedgerTransaction } from "./ledger";
import { offerOf } from "./offer-cache";
import { cachedOfferAddress } from "./pda-cache";
import { Prng } from "./prng";
import { SignerPool } from "./signer-pool";
import { COMPUTE_BUDGET_PROGRAM, MEMO_PROGRAM, ROUTER_ROUTE_TAKES, TransactionRejected } from "./runtime";
import type { LocalMint } from "./tokens";
import { compileMessage, fromWeb3Instruction, type InstructionLike, signMessage } from "./wire";
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

export interface SimulatorOptions {
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

const PAYMENT_WEIGHTS: Record<string, number> = { USDC: 45, USDT: 25, SOL: 20 };
/** Expiry choices in seconds with their weights: many short ones, so expiries happen within a few hours of history. */
const EXPIRIES: Array<[number, number]> = [
  [180, 10],
  [900, 20],
  [3_600, 25],
  [21_600, 20],
  [86_400, 15],
  [604_800, 7],
  [Number(MAX_EXPIRY_SECONDS), 3],
];

/** A set with O(1) add, delete and uniform random pick. */
class PickSet {
  private readonly items: string[] = [];
  private readonly index = new Map<string, number>();
  get size(): number {
    return this.items.length;
  }
  has(item: string): boolean {
    return this.index.has(item);
  }
  add(item: string): void {
    if (this.index.has(item)) return;
    this.index.set(item, this.items.length);
    this.items.push(item);
  }
  delete(item: string): void {
    const i = this.index.get(item);
    if (i === undefined) return;
    const last = this.items.pop() as string;
    if (last !== item) {
      this.items[i] = last;
      this.index.set(last, i);
    }
    this.index.delete(item);
  }
  pick(prng: Prng): string | undefined {
    return this.items.length === 0 ? undefined : this.items[prng.int(this.items.length)];
  }
  clear(): void {
    this.items.length = 0;
    this.index.clear();
  }
}

/** A binary min-heap of offers by expiry; entries go stale when the offer leaves the active set. */
class ExpiryHeap {
  private readonly heap: Array<[bigint, string]> = [];
  push(expiresAt: bigint, offer: string): void {
    const h = this.heap;
    h.push([expiresAt, offer]);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (h[parent]![0] <= h[i]![0]) break;
      [h[parent], h[i]] = [h[i]!, h[parent]!];
      i = parent;
    }
  }
  peek(): [bigint, string] | undefined {
    return this.heap[0];
  }
  pop(): [bigint, string] | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && h[l]![0] < h[m]![0]) m = l;
        if (r < h.length && h[r]![0] < h[m]![0]) m = r;
        if (m === i) break;
        [h[m], h[i]] = [h[i]!, h[m]!];
        i = m;
      }
    }
    return top;
  }
  clear(): void {
    this.heap.length = 0;
  }
}

interface PlannedTake {
  offer: string;
  account: OfferAccount;
  taker: LocalKeypair;
  fillAmount: bigint;
}

/**
 * Seeded market activity: makers post sell and buy offers across the token
 * and payment mints, takers fill them (alone, several per transaction, or via
 * the router's CPI), makers cancel and close, crankers expire lapsed offers,
 * and a few transactions fail as real ones do. Every transaction is signed and
 * executed by the ledger, which decides what it did.
 */
export class Simulator {
  private prng: Prng;
  private readonly active = new PickSet();
  private readonly inactive = new PickSet();
  private readonly expiries = new ExpiryHeap();
  private readonly nonces = new Map<string, bigint>();
  /** Per token mint, a multiplicative random walk around its reference price. */
  private readonly drift = new Map<string, number>();
  private readonly tokenMints: LocalMint[];
  private readonly paymentMints: LocalMint[];
  /** While generateParallel runs: transactions appended unsigned, waiting for the signing thread. */
  private deferred: LedgerTransaction[] | null = null;
  readonly counts: Record<ActivityKind, number> = Object.fromEntries(ACTIVITY_KINDS.map((k) => [k, 0])) as Record<ActivityKind, number>;

  constructor(
    private readonly world: World,
    private readonly ledger: Ledger,
    readonly options: SimulatorOptions,
  ) {
    this.prng = new Prng(`${options.seed}/simulator`);
    this.tokenMints = world.mints.filter((m) => m.role === "token");
    this.paymentMints = world.mints.filter((m) => m.role === "payment");
    ledger.listeners.appended.push((tx) => this.observe(tx));
    ledger.listeners.rolledBack.push(() => this.resync());
  }

  get activeOfferCount(): number {
    return this.active.size;
  }

  /** Keeps the simulator's view of the book in step with what the ledger executed. */
  private observe(tx: LedgerTransaction): void {
    for (const effect of tx.result.effects) {
      switch (effect.kind) {
        case "create": {
          this.active.add(effect.offer);
          this.expiries.push(effect.account.expiresAt, effect.offer);
          // A replayed ledger (a restart) teaches counting makers where they stopped, so no offer address is used twice.
          const used = this.nonces.get(effect.account.maker);
          if (used === undefined || used < effect.account.nonce) this.nonces.set(effect.account.maker, effect.account.nonce);
          break;
        }
        case "take":
          if (effect.account.state !== "active") this.retire(effect.offer);
          break;
        case "cancel":
        case "expire":
          this.retire(effect.offer);
          break;
        case "close":
          this.active.delete(effect.offer);
          this.inactive.delete(effect.offer);
          break;
      }
    }
  }

  private retire(offer: string): void {
    this.active.delete(offer);
    this.inactive.add(offer);
  }

  /** Rebuilds the view from the accounts, after a rollback took transactions back. */
  resync(): void {
    this.active.clear();
    this.inactive.clear();
    this.expiries.clear();
    for (const address of this.ledger.state.ownedBy(this.ledger.programs.programId)) {
      const offer = offerOf(this.ledger.state.get(address));
      if (!offer) continue;
      if (offer.state === "active") {
        this.active.add(address);
        this.expiries.push(offer.expiresAt, address);
      } else {
        this.inactive.add(address);
      }
    }
  }

  /**
   * After a replayed ledger: draws continue from a PRNG seeded by the seed and
   * where the ledger stands, so a continued chain does not repeat the first
   * run's choices and the same ledger always continues alike.
   */
  resumeAfterReplay(): void {
    this.prng = new Prng(`${this.options.seed}/simulator/resume/${this.ledger.tip.slot}/${this.ledger.transactions.length}`);
    // Each token's price walk goes on from its last offer (within its ±3%), not from the reference price: no jump on the charts.
    const tokens = new Map(this.tokenMints.map((m) => [m.address, m]));
    const payments = new Map(this.paymentMints.map((m) => [m.address, m]));
    for (let p = this.ledger.transactions.length - 1; p >= 0 && this.drift.size < tokens.size; p--) {
      for (const effect of (this.ledger.transactions[p] as LedgerTransaction).result.effects) {
        if (effect.kind !== "create" || this.drift.has(effect.account.tokenMint)) continue;
        const token = tokens.get(effect.account.tokenMint);
        const payment = payments.get(effect.account.paymentMint);
        if (!token || !payment) continue;
        const human = (Number(effect.account.pricePerToken) / 10 ** effect.account.priceScale) * 10 ** (token.decimals - payment.decimals);
        const drift = (human * payment.referenceUsd) / token.referenceUsd;
        if (Number.isFinite(drift) && drift > 0) this.drift.set(token.address, Math.min(3, Math.max(0.33, drift)));
      }
    }
  }

  private now(): bigint {
    return BigInt(this.ledger.tip.blockTime);
  }

  private offer(address: string): OfferAccount | null {
    return offerOf(this.ledger.state.get(address));
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
      const batch = this.deferred ?? [];
      this.deferred = [];
      if (batch.length === 0) return;
      const jobs = batch.map((tx) => ({ message: tx.messageBytes as Uint8Array, signers: tx.pendingSigners ?? [] }));
      inflight.push(pool.sign(jobs).then((signatures) => batch.forEach((tx, i) => this.ledger.completeSigning(tx, signatures[i] ?? []))));
    };
    this.deferred = [];
    try {
      let produced = 0;
      while (produced < count) {
        this.ledger.openSlot();
        const inSlot = Math.min(count - produced, this.prng.poisson(perSlot));
        for (let i = 0; i < inSlot; i++) if (this.step()) produced++;
        if (this.deferred.length >= chunk) {
          flush();
          // Two batches in flight keep the worker busy without holding many unsigned transactions.
          if (inflight.length > 2) await inflight.shift();
        }
      }
      flush();
      await Promise.all(inflight);
    } finally {
      this.deferred = null;
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
    if (this.active.size < target / 2) weights.create *= 3;
    else if (this.active.size > target * 1.5) weights.create /= 3;
    if (this.active.size === 0) for (const k of ["take", "multi_take", "cpi_take", "cancel", "failed_multi_take"] as const) weights[k] = 0;
    if (this.inactive.size === 0) weights.close = 0;
    const due = this.expiries.peek();
    if (!due || due[0] > this.now()) weights.expire = 0;
    return this.prng.weighted(weights);
  }

  private build(kind: ActivityKind): LedgerTransaction | null {
    switch (kind) {
      case "create":
        return this.create(false);
      case "failed_create":
        return this.create(true);
      case "take":
        return this.takes(1, { viaRouter: false });
      case "multi_take":
        return this.takes(this.prng.range(2, 4), { viaRouter: false });
      case "cpi_take":
        return this.takes(this.prng.range(1, 3), { viaRouter: true });
      case "failed_multi_take":
        return this.takes(2, { viaRouter: this.prng.chance(0.5), overfill: true });
      case "failed_take":
        return this.failedTake();
      case "cancel":
        return this.cancel(false);
      case "failed_cancel":
        return this.cancel(true);
      case "expire":
        return this.expire();
      case "close":
        return this.close(false);
      case "failed_close":
        return this.close(true);
    }
  }

  // ---- transactions -------------------------------------------------------------------------

  private send(payer: LocalKeypair, signers: LocalKeypair[], instructions: InstructionLike[], options: { v0?: boolean } = {}): LedgerTransaction | null {
    const v0 = options.v0 ?? this.prng.chance(this.options.v0Share);
    const prelude: InstructionLike[] = [];
    if (this.prng.chance(0.6)) {
      const price = new Uint8Array(9);
      price[0] = 3;
      new DataView(price.buffer).setBigUint64(1, BigInt(this.prng.range(1, 200_000)), true);
      prelude.push({ programId: COMPUTE_BUDGET_PROGRAM, keys: [], data: price });
      if (this.prng.chance(0.7)) {
        const limit = new Uint8Array(5);
        limit[0] = 2;
        new DataView(limit.buffer).setUint32(1, 400_000, true);
        prelude.push({ programId: COMPUTE_BUDGET_PROGRAM, keys: [], data: limit });
      }
    }
    const message = compileMessage({
      payer: payer.address,
      instructions: [...prelude, ...instructions],
      recentBlockhash: this.ledger.recentBlockhash(),
      lookupTables: v0 ? this.world.lookupTables : undefined,
    });
    try {
      if (this.deferred) {
        const bySigner = new Map([payer, ...signers].map((k) => [k.address, k]));
        const ordered = message.staticKeys.slice(0, message.header.numRequiredSignatures).map((key) => {
          const signer = bySigner.get(key);
          if (!signer) throw new Error(`missing signer ${key}`);
          return signer;
        });
        const tx = this.ledger.appendUnsigned(message, ordered);
        this.deferred.push(tx);
        return tx;
      }
      return this.ledger.append(signMessage(message, [payer, ...signers]));
    } catch (e) {
      // Two identical transactions in one block share a signature; the second is not included.
      if (e instanceof TransactionRejected) return null;
      throw e;
    }
  }

  private nextNonce(maker: LocalKeypair): bigint {
    const current = this.nonces.get(maker.address);
    let next: bigint;
    // Some makers count up, others use random nonces, as clients do.
    if (maker.publicKeyBytes[0]! % 2 === 0) next = (current ?? 0n) + 1n;
    else next = this.prng.bigRange(0n, U64_MAX);
    this.nonces.set(maker.address, next);
    return next;
  }

  private pickPaymentMint(): LocalMint {
    const weights = Object.fromEntries(this.paymentMints.map((m, i) => [String(i), (PAYMENT_WEIGHTS[m.symbol] ?? 10) / (m.name.includes("devnet") ? 4 : 1)]));
    return this.paymentMints[Number(this.prng.weighted(weights))] as LocalMint;
  }

  private midPrice(token: LocalMint, payment: LocalMint): number {
    let drift = this.drift.get(token.address) ?? 1;
    drift *= Math.exp((this.prng.next() - 0.5) * 0.01);
    drift = Math.min(3, Math.max(0.33, drift));
    this.drift.set(token.address, drift);
    return (token.referenceUsd * drift) / payment.referenceUsd;
  }

  private create(failing: boolean): LedgerTransaction | null {
    const maker = this.prng.pick(this.world.makers);
    const token = this.prng.pick(this.tokenMints);
    const payment = this.pickPaymentMint();
    const side: OfferSide = this.prng.chance(0.5) ? "sell" : "buy";
    const mid = this.midPrice(token, payment);
    const humanPrice = mid * (side === "sell" ? 1 + this.prng.next() * 0.03 : 1 - this.prng.next() * 0.03);
    // Four significant digits, as a trader would type.
    const exponent = Math.floor(Math.log10(humanPrice)) - 3;
    const digits = BigInt(Math.max(1, Math.round(humanPrice / 10 ** exponent)));
    const price = scaledPriceFromDecimal({ mantissa: digits, exponent: exponent + payment.decimals - token.decimals });
    if (!price) return null;
    const usd = this.prng.logUniform(20, 20_000);
    const wholeTokens = usd / (token.referenceUsd * (this.drift.get(token.address) ?? 1));
    let size = BigInt(Math.floor(wholeTokens * 10 ** token.decimals));
    const step = exactSizeStep(price.pricePerToken, price.priceScale);
    size -= size % step;
    if (size <= 0n) return null;
    const minFillChoice = this.prng.next();
    let minFill = minFillChoice < 0.5 ? 0n : minFillChoice < 0.8 ? size / 10n : size / 4n;
    minFill -= minFill % step;
    const lifetime = BigInt(this.prng.weighted(Object.fromEntries(EXPIRIES.map(([s, w]) => [String(s), w]))));
    const now = this.now();
    const args: CreateOfferArgs = {
      side,
      nonce: this.nextNonce(maker),
      size,
      pricePerToken: price.pricePerToken,
      priceScale: price.priceScale,
      minFill,
      expiresAt: now + lifetime,
    };
    let paymentMint = payment.address;
    if (failing) {
      const flaw = this.prng.int(3);
      if (flaw === 0 && step > 1n) args.size += 1n;
      else if (flaw === 1) args.expiresAt = now + MAX_EXPIRY_SECONDS + 60n;
      else paymentMint = this.prng.pick(this.tokenMints.filter((m) => m.address !== token.address)).address;
    }
    const offer = cachedOfferAddress(this.ledger.programs.programId, maker.address, args.nonce).address;
    const tokenProgram = this.world.tokenProgramOf(token.address);
    const escrowMint = side === "sell" ? token.address : paymentMint;
    const w = this.world;
    const ix = createOfferInstruction(
      w.publicKey(this.ledger.programs.programId),
      {
        maker: maker.publicKey,
        offer: w.publicKey(offer),
        tokenMint: w.publicKey(token.address),
        paymentMint: w.publicKey(paymentMint),
        escrow: w.publicKey(w.escrowOf(offer, tokenProgram)),
        makerSource: w.publicKey(w.tokenAccount(maker.address, escrowMint)),
        tokenProgram: w.publicKey(tokenProgram),
      },
      args,
    );
    return this.send(maker, [], [fromWeb3Instruction(ix)]);
  }

  private takeInstruction(take: PlannedTake): InstructionLike {
    const { account, taker } = take;
    const w = this.world;
    const tokenProgram = w.tokenProgramOf(account.tokenMint);
    const ix = takeOfferInstruction(
      w.publicKey(this.ledger.programs.programId),
      {
        taker: taker.publicKey,
        offer: w.publicKey(take.offer),
        maker: w.publicKey(account.maker),
        tokenMint: w.publicKey(account.tokenMint),
        paymentMint: w.publicKey(account.paymentMint),
        escrow: w.publicKey(w.escrowOf(take.offer, tokenProgram)),
        takerTokenAccount: w.publicKey(w.tokenAccount(taker.address, account.tokenMint)),
        takerPaymentAccount: w.publicKey(w.tokenAccount(taker.address, account.paymentMint)),
        makerReceiveAccount: w.publicKey(w.tokenAccount(account.maker, account.side === "sell" ? account.paymentMint : account.tokenMint)),
        treasuryPaymentAccount: w.publicKey(w.tokenAccount(this.ledger.programs.treasury, account.paymentMint)),
        tokenProgram: w.publicKey(tokenProgram),
      },
      { fillAmount: take.fillAmount },
    );
    return fromWeb3Instruction(ix);
  }

  /** A fill the offer accepts: the whole remainder, or a piece of at least min_fill that leaves something. */
  private fillFor(account: OfferAccount, remaining: bigint): bigint {
    if (remaining <= account.minFill || this.prng.chance(0.35)) return remaining;
    const low = account.minFill > 0n ? account.minFill : 1n;
    const fraction = BigInt(Math.floor((0.05 + this.prng.next() * 0.85) * 1_000_000));
    const amount = (remaining * fraction) / 1_000_000n;
    return amount < low ? low : amount >= remaining ? remaining : amount;
  }

  private pickTaker(maker: string): LocalKeypair {
    for (;;) {
      // A few makers also take other makers' offers.
      const taker = this.prng.chance(0.1) ? this.prng.pick(this.world.makers) : this.prng.pick(this.world.takers);
      if (taker.address !== maker) return taker;
    }
  }

  private takes(count: number, options: { viaRouter: boolean; overfill?: boolean }): LedgerTransaction | null {
    const now = this.now();
    const remaining = new Map<string, bigint>();
    const planned: PlannedTake[] = [];
    let taker: LocalKeypair | undefined;
    for (let attempt = 0; planned.length < count && attempt < count * 6; attempt++) {
      const address = this.active.pick(this.prng);
      if (!address) break;
      const account = this.offer(address);
      if (!account || account.state !== "active" || account.expiresAt <= now) continue;
      const left = remaining.get(address) ?? account.remainingSize;
      if (left === 0n) continue;
      if (taker && taker.address === account.maker) continue;
      taker ??= this.pickTaker(account.maker);
      const fillAmount = this.fillFor(account, left);
      remaining.set(address, left - fillAmount);
      planned.push({ offer: address, account, taker, fillAmount });
      // Sometimes the same offer is taken twice in one transaction.
      if (planned.length < count && left - fillAmount > 0n && this.prng.chance(0.2)) {
        const again = this.fillFor(account, left - fillAmount);
        remaining.set(address, left - fillAmount - again);
        planned.push({ offer: address, account, taker, fillAmount: again });
      }
    }
    if (planned.length === 0 || !taker) return null;
    if (options.overfill) {
      // The second take asks for more than the first left: the transaction fails and the first take is undone.
      const first = planned[0] as PlannedTake;
      planned.splice(1);
      planned.push({ ...first, fillAmount: first.account.remainingSize - first.fillAmount + 1n });
    }
    const payer = this.prng.chance(0.05) ? this.prng.pick(this.world.crankers) : taker;
    const signers = payer === taker ? [] : [taker];
    if (!options.viaRouter) {
      const instructions = planned.map((t) => this.takeInstruction(t));
      if (this.prng.chance(0.04)) instructions.push({ programId: MEMO_PROGRAM, keys: [], data: new TextEncoder().encode(`order ${this.prng.int(1e9)}`) });
      return this.send(payer, signers, instructions);
    }
    const takeIxs = planned.map((t) => this.takeInstruction(t));
    const data = new Uint8Array(2 + 8 * planned.length);
    data[0] = ROUTER_ROUTE_TAKES;
    data[1] = planned.length;
    const view = new DataView(data.buffer);
    planned.forEach((t, i) => view.setBigUint64(2 + 8 * i, t.fillAmount, true));
    const router: InstructionLike = {
      programId: this.ledger.programs.routerProgramId,
      keys: [{ pubkey: this.ledger.programs.programId, isSigner: false, isWritable: false }, ...takeIxs.flatMap((ix) => ix.keys)],
      data,
    };
    return this.send(payer, signers, [router]);
  }

  private failedTake(): LedgerTransaction | null {
    const now = this.now();
    const flaw = this.prng.int(4);
    if (flaw === 0) {
      const address = this.inactive.pick(this.prng);
      const account = address ? this.offer(address) : null;
      if (!address || !account) return null;
      const taker = this.pickTaker(account.maker);
      return this.send(taker, [], [this.takeInstruction({ offer: address, account, taker, fillAmount: account.minFill > 0n ? account.minFill : 1n })]);
    }
    const address = this.active.pick(this.prng);
    const account = address ? this.offer(address) : null;
    if (!address || !account) return null;
    const taker = this.pickTaker(account.maker);
    let fillAmount: bigint;
    if (flaw === 1 || account.expiresAt <= now) fillAmount = account.remainingSize + 1n;
    else if (account.minFill > 1n && account.remainingSize > account.minFill) fillAmount = account.minFill - 1n;
    else fillAmount = account.remainingSize + 1n;
    return this.send(taker, [], [this.takeInstruction({ offer: address, account, taker, fillAmount })]);
  }

  private makerOf(account: OfferAccount): LocalKeypair | undefined {
    return this.world.wallet(account.maker);
  }

  private cancel(failing: boolean): LedgerTransaction | null {
    const address = this.active.pick(this.prng);
    const account = address ? this.offer(address) : null;
    if (!address || !account) return null;
    let maker = this.makerOf(account);
    if (!maker) return null;
    if (failing) maker = this.prng.pick(this.world.makers.filter((m) => m.address !== account.maker));
    const w = this.world;
    const tokenProgram = w.tokenProgramOf(account.tokenMint);
    const refundMint = account.side === "sell" ? account.tokenMint : account.paymentMint;
    const ix = cancelOfferInstruction(w.publicKey(this.ledger.programs.programId), {
      maker: maker.publicKey,
      offer: w.publicKey(address),
      escrow: w.publicKey(w.escrowOf(address, tokenProgram)),
      makerRefundAccount: w.publicKey(w.tokenAccount(account.maker, refundMint)),
      tokenProgram: w.publicKey(tokenProgram),
    });
    return this.send(maker, [], [fromWeb3Instruction(ix)]);
  }

  private expire(): LedgerTransaction | null {
    const now = this.now();
    const due: Array<[string, OfferAccount]> = [];
    const batch = this.prng.chance(0.2) ? this.prng.range(2, 3) : 1;
    while (due.length < batch) {
      const top = this.expiries.peek();
      if (!top || top[0] > now) break;
      this.expiries.pop();
      if (!this.active.has(top[1])) continue;
      const account = this.offer(top[1]);
      if (account && account.state === "active" && account.expiresAt <= now) due.push([top[1], account]);
    }
    if (due.length === 0) return null;
    const cranker = this.prng.pick(this.world.crankers);
    const w = this.world;
    const instructions = due.map(([address, account]) => {
      const tokenProgram = w.tokenProgramOf(account.tokenMint);
      const refundMint = account.side === "sell" ? account.tokenMint : account.paymentMint;
      return fromWeb3Instruction(
        expireOfferInstruction(w.publicKey(this.ledger.programs.programId), {
          cranker: cranker.publicKey,
          offer: w.publicKey(address),
          maker: w.publicKey(account.maker),
          escrow: w.publicKey(w.escrowOf(address, tokenProgram)),
          makerRefundAccount: w.publicKey(w.tokenAccount(account.maker, refundMint)),
          tokenProgram: w.publicKey(tokenProgram),
        }),
      );
    });
    return this.send(cranker, [], instructions);
  }

  private close(failing: boolean): LedgerTransaction | null {
    const address = (failing ? this.active : this.inactive).pick(this.prng);
    const account = address ? this.offer(address) : null;
    if (!address || !account) return null;
    const maker = this.makerOf(account);
    if (!maker) return null;
    const w = this.world;
    const ix = closeOfferInstruction(w.publicKey(this.ledger.programs.programId), { maker: maker.publicKey, offer: w.publicKey(address) });
    return this.send(maker, [], [fromWeb3Instruction(ix)]);
  }
}
