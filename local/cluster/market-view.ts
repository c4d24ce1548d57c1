import type { Ledger, LedgerTransaction } from "./ledger";
import { offerOf } from "./offer-cache";
import { ExpiryHeap, PickSet } from "./pick-collections";

/**
 * The simulator's view of the book, kept in step with what the ledger
 * executed: which offers are active (and when they lapse), which are ended
 * and wait to be closed, each maker's last nonce and each token's price walk.
 */
export class MarketView {
  readonly active = new PickSet();
  readonly inactive = new PickSet();
  readonly expiries = new ExpiryHeap();
  readonly nonces = new Map<string, bigint>();
  /** Per token mint, a multiplicative random walk around its reference price. */
  readonly drift = new Map<string, number>();

  constructor(private readonly ledger: Ledger) {
    ledger.listeners.appended.push((tx) => this.observe(tx));
    ledger.listeners.rolledBack.push(() => this.resync());
  }

  /** Keeps the simulator's view of the book in step with what the ledger executed. */
  observe(tx: LedgerTransaction): void {
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
}
