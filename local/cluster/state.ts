/**
 * The accounts of the local cluster, with an undo journal so a transaction
 * that fails, or the unfinalized tail of the ledger, can be taken back.
 */

export interface AccountRecord {
  lamports: number;
  owner: string;
  data: Uint8Array;
  executable: boolean;
}

export interface UndoEntry {
  address: string;
  previous: AccountRecord | undefined;
}

/** A debit beyond an account's lamports: the runtime fails the instruction as the System program's transfer does. */
export class InsufficientLamports extends Error {
  constructor(
    readonly address: string,
    readonly balance: number,
    readonly needed: number,
  ) {
    super(`Transfer: insufficient lamports ${balance}, need ${needed}`);
  }
}

export class AccountsState {
  private readonly accounts = new Map<string, AccountRecord>();
  private readonly byOwner = new Map<string, Set<string>>();
  /** While a transaction executes, every write records the value it replaces. */
  private journal: UndoEntry[] | null = null;

  get(address: string): AccountRecord | undefined {
    return this.accounts.get(address);
  }

  lamports(address: string): number {
    return this.accounts.get(address)?.lamports ?? 0;
  }

  set(address: string, record: AccountRecord | undefined): void {
    const previous = this.accounts.get(address);
    this.journal?.push({ address, previous });
    this.write(address, previous, record);
  }

  /** Lamports moves keep owner and data; a missing account becomes a system account. */
  addLamports(address: string, delta: number): void {
    const current = this.accounts.get(address);
    const next: AccountRecord = current
      ? { ...current, lamports: current.lamports + delta }
      : { lamports: delta, owner: "11111111111111111111111111111111", data: new Uint8Array(0), executable: false };
    if (next.lamports < 0) throw new InsufficientLamports(address, current?.lamports ?? 0, -delta);
    this.set(address, next);
  }

  ownedBy(owner: string): ReadonlySet<string> {
    return this.byOwner.get(owner) ?? new Set();
  }

  beginJournal(): UndoEntry[] {
    this.journal = [];
    return this.journal;
  }

  endJournal(): void {
    this.journal = null;
  }

  /** Restores the journal's entries after `savepoint`, newest first. */
  rollbackJournal(journal: UndoEntry[], savepoint: number): void {
    while (journal.length > savepoint) {
      const entry = journal.pop() as UndoEntry;
      this.write(entry.address, this.accounts.get(entry.address), entry.previous);
    }
  }

  /** Undoes a whole committed transaction (used by rollbacks of the unfinalized tail). */
  undo(entries: readonly UndoEntry[]): void {
    for (let i = entries.length - 1; i >= 0; i--) {
      const entry = entries[i] as UndoEntry;
      this.write(entry.address, this.accounts.get(entry.address), entry.previous);
    }
  }

  private write(address: string, previous: AccountRecord | undefined, next: AccountRecord | undefined): void {
    if (previous && (!next || next.owner !== previous.owner)) this.byOwner.get(previous.owner)?.delete(address);
    if (next) {
      this.accounts.set(address, next);
      let owned = this.byOwner.get(next.owner);
      if (!owned) {
        owned = new Set();
        this.byOwner.set(next.owner, owned);
      }
      owned.add(address);
    } else {
      this.accounts.delete(address);
    }
  }
}

/** Rent-exempt minimum for an account of `size` data bytes, as the default rent sysvar computes it. */
export function rentExemptLamports(size: number): number {
  return (size + 128) * 3480 * 2;
}
