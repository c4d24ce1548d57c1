import { createHash } from "node:crypto";
import bs58 from "bs58";
import { archiveTransaction, TransactionArchive } from "./archive";
import { deriveHash, type LocalKeypair } from "./keys";
import { type BlockContext, executeTransaction, type ProgramIds, TransactionRejected } from "./transaction-executor";
import type { Commitment, LedgerOptions, LedgerTransaction, SlotRecord } from "./ledger-types";
import { type AccountRecord, AccountsState } from "./state";
import { assembleWire, type CompiledMessage, serializeMessage, type SignedTransaction, verifySignatures } from "./wire";

export type { Commitment, LedgerOptions, LedgerTransaction, SlotRecord } from "./ledger-types";

/** base58 as one flat string: base-x builds it a character at a time, which V8 keeps as a rope of ~70 nodes (2 KB, a quarter of the ledger). */
const signatureText = (bytes: Uint8Array): string => Buffer.from(bs58.encode(bytes), "latin1").toString("latin1");

/** How far finalized trails confirmed, as on mainnet (~32 slots). */
export const FINALITY_DEPTH = 32;
/** Undo lists are kept this long, so a "behind" view or a rollback can look back past finality. */
const UNDO_RETENTION_SLOTS = 512;

/**
 * The local cluster's chain: blocks of executed transactions, the accounts
 * they leave behind, the commitment tips, and the history indexes the RPC
 * methods read. Rollback drops the unfinalized tail; prune forgets old
 * history as a non-archival node does.
 */
export class Ledger {
  readonly state = new AccountsState();
  readonly slots: SlotRecord[] = [];
  private readonly slotByNumber = new Map<number, SlotRecord>();
  private readonly slotIndexByBlockhash = new Map<string, number>();
  readonly transactions: LedgerTransaction[] = [];
  private readonly bySignature = new Map<string, LedgerTransaction>();
  private readonly byAddress = new Map<string, number[]>();
  private readonly seenMessages = new Set<string>();
  private finalizedSlotValue: number;
  /** Transactions before this position hold no undo list any more. */
  private undoReleasedBefore = 0;
  readonly archive = new TransactionArchive();
  private archivedBefore = 0;
  private forkId = 0;
  /** Slots the node pretends to lag behind its real tip. */
  behindSlots = 0;
  /** History below this slot is gone (prune). */
  firstAvailableSlot: number;
  readonly genesisHash: string;
  /** Called after every new block, appended transaction, rollback and prune, e.g. to keep the simulator's view in step or a journal. */
  readonly listeners = {
    opened: [] as Array<(slot: SlotRecord) => void>,
    appended: [] as Array<(tx: LedgerTransaction) => void>,
    rolledBack: [] as Array<(removed: LedgerTransaction[], toSlot: number) => void>,
    pruned: [] as Array<(beforeSlot: number) => void>,
  };

  constructor(readonly options: LedgerOptions) {
    this.finalizedSlotValue = options.firstSlot;
    this.firstAvailableSlot = options.firstSlot;
    // The genesis time is part of it: a new ledger from the same seed is another chain.
    this.genesisHash = deriveHash(options.seed, `genesis/${options.genesisUnixMs}`);
    this.pushSlot(options.firstSlot);
  }

  get programs(): ProgramIds {
    return this.options.programs;
  }

  // ---- blocks -------------------------------------------------------------------------------

  get tip(): SlotRecord {
    return this.slots[this.slots.length - 1] as SlotRecord;
  }

  get finalizedSlot(): number {
    return this.finalizedSlotValue;
  }

  blockTimeOf(slot: number): number {
    return Math.floor((this.options.genesisUnixMs + (slot - this.options.firstSlot) * this.options.slotMs) / 1000);
  }

  /** The slot whose block time is `unixMs` on this ledger's clock (slots keep a fixed duration). */
  slotAt(unixMs: number): number {
    return this.options.firstSlot + Math.floor((unixMs - this.options.genesisUnixMs) / this.options.slotMs);
  }

  slot(slot: number): SlotRecord | undefined {
    return this.slotByNumber.get(slot);
  }

  /**
   * Starts a new block at `slot` (default: the next slot); the slots between
   * are skipped, as leaders sometimes skip. Advances finality.
   */
  openSlot(slot = this.tip.slot + 1): SlotRecord {
    if (slot <= this.tip.slot) throw new Error(`slot ${slot} is not after the tip ${this.tip.slot}`);
    const record = this.pushSlot(slot);
    this.finalizedSlotValue = Math.max(this.finalizedSlotValue, this.slotBefore(slot - FINALITY_DEPTH));
    this.releaseUndo(slot - UNDO_RETENTION_SLOTS);
    if (this.options.archiveHistory) this.archiveReleased();
    for (const listener of this.listeners.opened) listener(record);
    return record;
  }

  private pushSlot(slot: number): SlotRecord {
    const parent = this.slots[this.slots.length - 1];
    const record: SlotRecord = {
      slot,
      parentSlot: parent?.slot ?? slot,
      blockTime: this.blockTimeOf(slot),
      blockhash: deriveHash(this.options.seed, `blockhash/${this.forkId}/${slot}`),
      blockHeight: (parent?.blockHeight ?? -1) + 1,
      firstPosition: this.transactions.length,
      transactionCount: 0,
    };
    this.slotIndexByBlockhash.set(record.blockhash, this.slots.length);
    this.slots.push(record);
    this.slotByNumber.set(slot, record);
    return record;
  }

  /** The highest produced slot at or below `slot`. */
  private slotBefore(slot: number): number {
    let lo = 0;
    let hi = this.slots.length - 1;
    if ((this.slots[0] as SlotRecord).slot > slot) return (this.slots[0] as SlotRecord).slot;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.slots[mid] as SlotRecord).slot <= slot) lo = mid;
      else hi = mid - 1;
    }
    return (this.slots[lo] as SlotRecord).slot;
  }

  private releaseUndo(belowSlot: number): void {
    while (this.undoReleasedBefore < this.transactions.length) {
      const tx = this.transactions[this.undoReleasedBefore] as LedgerTransaction;
      if (tx.slot >= belowSlot) break;
      tx.result.undo = [];
      this.undoReleasedBefore++;
    }
  }

  /** Archives the signed transactions past the undo window: none of them can roll back, nor be sent again (their blockhash expired). */
  private archiveReleased(): void {
    for (; this.archivedBefore < this.undoReleasedBefore; this.archivedBefore++) {
      const tx = this.transactions[this.archivedBefore] as LedgerTransaction;
      if (tx.signature === "") return; // still on the signing thread
      if (tx.pruned || tx.archived !== null) continue;
      archiveTransaction(this.archive, tx);
      this.seenMessages.delete(tx.messageKey);
    }
  }

  /** The signed wire form, wherever it is kept; null once pruned. */
  wireOf(tx: LedgerTransaction): Uint8Array | null {
    if (tx.archived !== null) return this.archive.bytes(tx.archived, "wire");
    return tx.signed?.wire ?? null;
  }

  // ---- transactions -------------------------------------------------------------------------

  /**
   * Executes a signed transaction in the tip block and appends it, failed or
   * not (a failed transaction is still recorded, with meta.err, and pays its
   * fee). Throws TransactionRejected for what a leader would not include:
   * duplicates, unknown blockhash, missing lookup tables, bad signatures.
   */
  append(signed: SignedTransaction, options: { verifySignatures?: boolean } = {}): LedgerTransaction {
    const firstSignature = signed.signatures[0];
    if (!firstSignature) throw new TransactionRejected("transaction has no signatures");
    if (options.verifySignatures && !verifySignatures(signed)) throw new TransactionRejected("Transaction signature verification failure", -32003, "SignatureFailure");
    const signature = signatureText(firstSignature);
    if (this.bySignature.has(signature)) throw new TransactionRejected("This transaction has already been processed", -32002, "AlreadyProcessed");
    const tx = this.appendMessage(signed.message, serializeMessage(signed.message), signature, signed);
    this.bySignature.set(signature, tx);
    return tx;
  }

  /**
   * Executes and appends a transaction whose signatures are still being made
   * (on a signing thread); completeSigning() fills them in. Until then the
   * transaction has no signature and is not findable, so only use this while
   * no reader is served (the pre-built history).
   */
  appendUnsigned(message: CompiledMessage, signers: readonly LocalKeypair[]): LedgerTransaction {
    const tx = this.appendMessage(message, serializeMessage(message), "");
    tx.pendingSigners = signers;
    return tx;
  }

  completeSigning(tx: LedgerTransaction, signatures: Uint8Array[]): void {
    const messageBytes = tx.messageBytes;
    if (!messageBytes || tx.signature !== "") throw new Error("transaction is not waiting for signatures");
    const signature = signatureText(signatures[0] as Uint8Array);
    tx.signature = signature;
    tx.result.signature = signature;
    for (const effect of tx.result.effects) if (effect.kind === "take") effect.fill.signature = signature;
    const message = tx.signed?.message;
    if (!message) throw new Error("transaction lost its message");
    tx.signed = { message, signatures, wire: assembleWire(messageBytes, signatures) };
    tx.messageBytes = null;
    tx.pendingSigners = undefined;
    this.bySignature.set(signature, tx);
  }

  private appendMessage(message: CompiledMessage, messageBytes: Uint8Array, signature: string, signed?: SignedTransaction): LedgerTransaction {
    const block = this.tip;
    if (!this.isRecentBlockhash(message.recentBlockhash)) throw new TransactionRejected("Blockhash not found", -32002, "BlockhashNotFound");
    // Ed25519 signatures are deterministic, so the same message signed twice is the same transaction.
    const messageKey = createHash("sha256").update(messageBytes).digest("base64");
    if (this.seenMessages.has(messageKey)) throw new TransactionRejected("This transaction has already been processed", -32002, "AlreadyProcessed");
    const context: BlockContext = { slot: block.slot, blockTime: block.blockTime };
    const result = executeTransaction(this.state, this.programs, message, signature, context);
    const tx: LedgerTransaction = {
      position: this.transactions.length,
      signature,
      slot: block.slot,
      blockTime: block.blockTime,
      pruned: false,
      signed: signed ?? { message, signatures: [], wire: new Uint8Array(0) },
      messageBytes: signed ? null : messageBytes,
      version: message.version,
      archived: null,
      messageKey,
      result,
      errJson: JSON.stringify(result.err),
      addresses: uniqueAddresses(message.staticKeys, result.loadedAddresses.writable, result.loadedAddresses.readonly),
    };
    this.seenMessages.add(messageKey);
    this.transactions.push(tx);
    for (const address of tx.addresses) {
      let positions = this.byAddress.get(address);
      if (!positions) {
        positions = [];
        this.byAddress.set(address, positions);
      }
      positions.push(tx.position);
    }
    block.transactionCount++;
    for (const listener of this.listeners.appended) listener(tx);
    return tx;
  }

  /** Blockhashes of the last 150 blocks are valid, as on the real cluster. */
  isRecentBlockhash(blockhash: string): boolean {
    const index = this.slotIndexByBlockhash.get(blockhash);
    return index !== undefined && index >= this.slots.length - 151 && this.slots[index]?.blockhash === blockhash;
  }

  /** The blockhash a new transaction should carry: the tip's parent block (the tip block is still being filled). */
  recentBlockhash(): string {
    const parent = this.slots[this.slots.length - 2] ?? this.tip;
    return parent.blockhash;
  }

  bySignatureAvailable(signature: string): LedgerTransaction | undefined {
    const tx = this.bySignature.get(signature);
    return tx && !tx.pruned ? tx : undefined;
  }

  positionsOf(address: string): readonly number[] {
    return this.byAddress.get(address) ?? [];
  }

  transactionAt(position: number): LedgerTransaction | undefined {
    return this.transactions[position];
  }

  // ---- commitment ---------------------------------------------------------------------------

  /** The highest slot a reader at this commitment sees, accounting for a simulated lag. */
  visibleSlot(commitment: Commitment): number {
    const tip = this.tip.slot;
    const lagged = this.behindSlots > 0 ? this.slotBefore(tip - this.behindSlots) : tip;
    if (commitment !== "finalized") return lagged;
    const finalized = this.behindSlots > 0 ? Math.min(this.finalizedSlotValue, this.slotBefore(lagged - FINALITY_DEPTH)) : this.finalizedSlotValue;
    return finalized;
  }

  confirmationStatus(slot: number): "processed" | "confirmed" | "finalized" {
    return slot <= this.visibleSlot("finalized") ? "finalized" : "confirmed";
  }

  /**
   * The account as of `slot`: the current value unless a later transaction
   * changed it, in which case the value before the earliest such change.
   */
  accountAt(address: string, slot: number): AccountRecord | undefined {
    if (slot >= this.tip.slot) return this.state.get(address);
    // An overlay entry of undefined is an account that did not exist yet at `slot`.
    const overlay = this.overlayAt(slot, address);
    return overlay.has(address) ? overlay.get(address) : this.state.get(address);
  }

  /** Accounts as of `slot` for the addresses later transactions changed (undefined = did not exist). */
  overlayAt(slot: number, only?: string): Map<string, AccountRecord | undefined> & { has(key: string): boolean } {
    const overlay = new Map<string, AccountRecord | undefined>();
    for (let p = this.transactions.length - 1; p >= 0; p--) {
      const tx = this.transactions[p] as LedgerTransaction;
      if (tx.slot <= slot) break;
      const undo = tx.result.undo;
      for (let i = undo.length - 1; i >= 0; i--) {
        const entry = undo[i]!;
        if (only === undefined || entry.address === only) overlay.set(entry.address, entry.previous);
      }
    }
    return overlay;
  }

  // ---- forks and pruning --------------------------------------------------------------------

  /**
   * Drops every block after `toSlot` (default: the finalized slot), undoing
   * their transactions, as when the cluster abandons a fork. Later blocks get
   * new blockhashes, so rebuilt transactions get new signatures.
   */
  rollback(toSlot = this.finalizedSlotValue): LedgerTransaction[] {
    if (toSlot < this.finalizedSlotValue) throw new Error(`cannot roll back finalized slot ${this.finalizedSlotValue} (asked ${toSlot})`);
    const removed: LedgerTransaction[] = [];
    while (this.transactions.length > 0 && (this.transactions[this.transactions.length - 1] as LedgerTransaction).slot > toSlot) {
      const tx = this.transactions.pop() as LedgerTransaction;
      this.state.undo(tx.result.undo);
      this.bySignature.delete(tx.signature);
      this.seenMessages.delete(tx.messageKey);
      for (const address of tx.addresses) {
        const positions = this.byAddress.get(address);
        if (positions && positions[positions.length - 1] === tx.position) positions.pop();
        if (positions && positions.length === 0) this.byAddress.delete(address);
      }
      removed.push(tx);
    }
    while (this.slots.length > 1 && this.tip.slot > toSlot) {
      this.slotByNumber.delete(this.tip.slot);
      this.slotIndexByBlockhash.delete(this.tip.blockhash);
      this.slots.pop();
    }
    this.undoReleasedBefore = Math.min(this.undoReleasedBefore, this.transactions.length);
    this.archivedBefore = Math.min(this.archivedBefore, this.transactions.length);
    this.forkId++;
    removed.reverse();
    for (const listener of this.listeners.rolledBack) listener(removed, toSlot);
    return removed;
  }

  /** Forgets transactions and blocks below `slot`, like a node whose ledger starts later. Returns how many were dropped. */
  prune(beforeSlot: number): number {
    const limit = Math.min(beforeSlot, this.tip.slot);
    let dropped = 0;
    for (const tx of this.transactions) {
      if (tx.slot >= limit) break;
      if (tx.pruned) continue;
      tx.pruned = true;
      tx.signed = null;
      tx.messageBytes = null;
      this.bySignature.delete(tx.signature);
      dropped++;
    }
    this.firstAvailableSlot = Math.max(this.firstAvailableSlot, this.slotAfter(limit));
    for (const listener of this.listeners.pruned) listener(beforeSlot);
    return dropped;
  }

  private slotAfter(slot: number): number {
    for (const s of this.slots) if (s.slot >= slot) return s.slot;
    return this.tip.slot;
  }

  forkCount(): number {
    return this.forkId;
  }
}

function uniqueAddresses(...lists: ReadonlyArray<readonly string[]>): string[] {
  const out: string[] = [];
  for (const list of lists) for (const a of list) if (!out.includes(a)) out.push(a);
  return out;
}
