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
import type { MarketView } from "./market-view";
import { humanOfferPrice, takeableNearMarket } from "./near-market";
import { offerOf } from "./offer-cache";
import { cachedOfferAddress } from "./pda-cache";
import type { Prng } from "./prng";
import { COMPUTE_BUDGET_PROGRAM, MEMO_PROGRAM, ROUTER_ROUTE_TAKES, TransactionRejected } from "./transaction-executor";
import type { LocalMint } from "./tokens";
import { compileMessage, fromWeb3Instruction, type InstructionLike, signMessage } from "./wire";
import type { World } from "./world";

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

interface PlannedTake {
  offer: string;
  account: OfferAccount;
  taker: LocalKeypair;
  fillAmount: bigint;
}

/**
 * The simulator's transactions, one method per kind of market activity:
 * each picks who acts on what from the market view, builds the instructions
 * with lib/program's builders, signs and appends them to the ledger. Null
 * when there is nothing to act on (or two identical transactions collide).
 */
export class MarketActions {
  /** While generateParallel runs: transactions appended unsigned, waiting for the signing thread. */
  deferred: LedgerTransaction[] | null = null;
  private readonly tokenMints: LocalMint[];
  private readonly paymentMints: LocalMint[];

  constructor(
    private readonly world: World,
    private readonly ledger: Ledger,
    private readonly view: MarketView,
    /** Reseeded by the simulator after a replay, hence not readonly. */
    public prng: Prng,
    private readonly v0Share: number,
  ) {
    this.tokenMints = world.mints.filter((m) => m.role === "token");
    this.paymentMints = world.mints.filter((m) => m.role === "payment");
  }

  now(): bigint {
    return BigInt(this.ledger.tip.blockTime);
  }

  private offer(address: string): OfferAccount | null {
    return offerOf(this.ledger.state.get(address));
  }

  private send(payer: LocalKeypair, signers: LocalKeypair[], instructions: InstructionLike[], options: { v0?: boolean } = {}): LedgerTransaction | null {
    const v0 = options.v0 ?? this.prng.chance(this.v0Share);
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
    const current = this.view.nonces.get(maker.address);
    let next: bigint;
    // Some makers count up, others use random nonces, as clients do.
    if (maker.publicKeyBytes[0]! % 2 === 0) next = (current ?? 0n) + 1n;
    else next = this.prng.bigRange(0n, U64_MAX);
    this.view.nonces.set(maker.address, next);
    return next;
  }

  private pickPaymentMint(): LocalMint {
    const weights = Object.fromEntries(this.paymentMints.map((m, i) => [String(i), (PAYMENT_WEIGHTS[m.symbol] ?? 10) / (m.name.includes("devnet") ? 4 : 1)]));
    return this.paymentMints[Number(this.prng.weighted(weights))] as LocalMint;
  }

  private midPrice(token: LocalMint, payment: LocalMint): number {
    let drift = this.view.drift.get(token.address) ?? 1;
    drift *= Math.exp((this.prng.next() - 0.5) * 0.01);
    drift = Math.min(3, Math.max(0.33, drift));
    this.view.drift.set(token.address, drift);
    return (token.referenceUsd * drift) / payment.referenceUsd;
  }

  /** Whether a demo taker would take this offer now: near the market (near-market.ts), and of mints the simulator prices. */
  private nearMarket(account: OfferAccount): boolean {
    const token = this.tokenMints.find((m) => m.address === account.tokenMint);
    const payment = this.paymentMints.find((m) => m.address === account.paymentMint);
    if (!token || !payment) return false;
    const mid = (token.referenceUsd * (this.view.drift.get(token.address) ?? 1)) / payment.referenceUsd;
    return takeableNearMarket(account.side, humanOfferPrice(account, token.decimals, payment.decimals), mid);
  }

  create(failing: boolean): LedgerTransaction | null {
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
    const wholeTokens = usd / (token.referenceUsd * (this.view.drift.get(token.address) ?? 1));
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

  takes(count: number, options: { viaRouter: boolean; overfill?: boolean }): LedgerTransaction | null {
    const now = this.now();
    const remaining = new Map<string, bigint>();
    const planned: PlannedTake[] = [];
    let taker: LocalKeypair | undefined;
    for (let attempt = 0; planned.length < count && attempt < count * 6; attempt++) {
      const address = this.view.active.pick(this.prng);
      if (!address) break;
      const account = this.offer(address);
      if (!account || account.state !== "active" || account.expiresAt <= now) continue;
      if (!this.nearMarket(account)) continue;
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

  failedTake(): LedgerTransaction | null {
    const now = this.now();
    const flaw = this.prng.int(4);
    if (flaw === 0) {
      const address = this.view.inactive.pick(this.prng);
      const account = address ? this.offer(address) : null;
      if (!address || !account) return null;
      const taker = this.pickTaker(account.maker);
      return this.send(taker, [], [this.takeInstruction({ offer: address, account, taker, fillAmount: account.minFill > 0n ? account.minFill : 1n })]);
    }
    const address = this.view.active.pick(this.prng);
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

  cancel(failing: boolean): LedgerTransaction | null {
    const address = this.view.active.pick(this.prng);
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

  expire(): LedgerTransaction | null {
    const now = this.now();
    const due: Array<[string, OfferAccount]> = [];
    const batch = this.prng.chance(0.2) ? this.prng.range(2, 3) : 1;
    while (due.length < batch) {
      const top = this.view.expiries.peek();
      if (!top || top[0] > now) break;
      this.view.expiries.pop();
      if (!this.view.active.has(top[1])) continue;
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

  close(failing: boolean): LedgerTransaction | null {
    const address = (failing ? this.view.active : this.view.inactive).pick(this.prng);
    const account = address ? this.offer(address) : null;
    if (!address || !account) return null;
    const maker = this.makerOf(account);
    if (!maker) return null;
    const w = this.world;
    const ix = closeOfferInstruction(w.publicKey(this.ledger.programs.programId), { maker: maker.publicKey, offer: w.publicKey(address) });
    return this.send(maker, [], [fromWeb3Instruction(ix)]);
  }
}
