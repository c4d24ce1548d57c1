import { createPublicKey, verify } from "node:crypto";
import bs58 from "bs58";
import { type PublicKey, type TransactionInstruction, VersionedTransaction } from "@solana/web3.js";
import type { LocalKeypair } from "./keys";

/**
 * Transaction messages compiled and serialized by hand, in Solana's wire
 * format. web3.js's compiler costs ~200 µs a message; this one a few µs, which
 * is what lets a 100,000-transaction ledger build in seconds. The cluster tests
 * check the result against web3.js's deserializer and signature verification.
 */

export interface AccountMetaLike {
  pubkey: string;
  isSigner: boolean;
  isWritable: boolean;
}

export interface InstructionLike {
  programId: string;
  keys: readonly AccountMetaLike[];
  data: Uint8Array;
}

export interface CompiledInstruction {
  programIdIndex: number;
  accounts: number[];
  data: Uint8Array;
}

export interface MessageHeader {
  numRequiredSignatures: number;
  numReadonlySignedAccounts: number;
  numReadonlyUnsignedAccounts: number;
}

export interface AddressTableLookup {
  accountKey: string;
  writableIndexes: number[];
  readonlyIndexes: number[];
}

export interface LookupTableAccount {
  key: string;
  addresses: readonly string[];
}

export interface CompiledMessage {
  version: "legacy" | 0;
  header: MessageHeader;
  staticKeys: string[];
  recentBlockhash: string;
  instructions: CompiledInstruction[];
  addressTableLookups: AddressTableLookup[];
}

const publicKeyStrings = new WeakMap<PublicKey, string>();

/** base58 of a PublicKey, memoized per object: the simulator reuses its PublicKeys. */
export function addressOf(key: PublicKey): string {
  let text = publicKeyStrings.get(key);
  if (text === undefined) {
    text = key.toBase58();
    publicKeyStrings.set(key, text);
  }
  return text;
}

export function fromWeb3Instruction(ix: TransactionInstruction): InstructionLike {
  return {
    programId: addressOf(ix.programId),
    keys: ix.keys.map((k) => ({ pubkey: addressOf(k.pubkey), isSigner: k.isSigner, isWritable: k.isWritable })),
    data: ix.data,
  };
}

interface KeyFlags {
  signer: boolean;
  writable: boolean;
  invoked: boolean;
  order: number;
}

/**
 * Compiles instructions into a message. With `lookupTables` (possibly empty)
 * the message is v0 and non-signer, non-program accounts found in a table are
 * loaded from it; otherwise it is legacy.
 */
export function compileMessage(args: {
  payer: string;
  instructions: readonly InstructionLike[];
  recentBlockhash: string;
  lookupTables?: readonly LookupTableAccount[];
}): CompiledMessage {
  const flags = new Map<string, KeyFlags>();
  const touch = (key: string): KeyFlags => {
    let f = flags.get(key);
    if (f === undefined) {
      f = { signer: false, writable: false, invoked: false, order: flags.size };
      flags.set(key, f);
    }
    return f;
  };
  const payer = touch(args.payer);
  payer.signer = true;
  payer.writable = true;
  for (const ix of args.instructions) {
    for (const meta of ix.keys) {
      const f = touch(meta.pubkey);
      f.signer ||= meta.isSigner;
      f.writable ||= meta.isWritable;
    }
    touch(ix.programId).invoked = true;
  }

  const lookups: AddressTableLookup[] = [];
  const loadedWritable: string[] = [];
  const loadedReadonly: string[] = [];
  if (args.lookupTables) {
    const loaded = new Set<string>();
    for (const table of args.lookupTables) {
      const lookup: AddressTableLookup = { accountKey: table.key, writableIndexes: [], readonlyIndexes: [] };
      table.addresses.forEach((address, index) => {
        const f = flags.get(address);
        if (f === undefined || f.signer || f.invoked || loaded.has(address)) return;
        loaded.add(address);
        if (f.writable) {
          lookup.writableIndexes.push(index);
          loadedWritable.push(address);
        } else {
          lookup.readonlyIndexes.push(index);
          loadedReadonly.push(address);
        }
      });
      if (lookup.writableIndexes.length + lookup.readonlyIndexes.length > 0) lookups.push(lookup);
    }
    for (const address of loaded) flags.delete(address);
  }

  const groups: string[][] = [[], [], [], []];
  for (const [key, f] of [...flags].sort((a, b) => a[1].order - b[1].order)) {
    groups[(f.signer ? 0 : 2) + (f.writable ? 0 : 1)]!.push(key);
  }
  const [signerWritable, signerReadonly, writable, readonly] = groups as [string[], string[], string[], string[]];
  const staticKeys = [...signerWritable, ...signerReadonly, ...writable, ...readonly];
  const index = new Map<string, number>();
  [...staticKeys, ...loadedWritable, ...loadedReadonly].forEach((key, i) => index.set(key, i));
  const indexOf = (key: string) => index.get(key) as number;

  return {
    version: args.lookupTables ? 0 : "legacy",
    header: {
      numRequiredSignatures: signerWritable.length + signerReadonly.length,
      numReadonlySignedAccounts: signerReadonly.length,
      numReadonlyUnsignedAccounts: readonly.length,
    },
    staticKeys,
    recentBlockhash: args.recentBlockhash,
    instructions: args.instructions.map((ix) => ({
      programIdIndex: indexOf(ix.programId),
      accounts: ix.keys.map((k) => indexOf(k.pubkey)),
      data: ix.data,
    })),
    addressTableLookups: lookups,
  };
}

const addressBytesCache = new Map<string, Uint8Array>();

/** base58 decoding costs microseconds and the same few thousand addresses recur in every transaction. */
export function addressBytes(address: string): Uint8Array {
  let bytes = addressBytesCache.get(address);
  if (bytes === undefined) {
    bytes = bs58.decode(address);
    if (bytes.length !== 32) throw new Error(`not a 32-byte address: ${address}`);
    if (addressBytesCache.size >= 500_000) addressBytesCache.clear();
    addressBytesCache.set(address, bytes);
  }
  return bytes;
}

class ByteSink {
  private chunks: number[] = [];
  private parts: Uint8Array[] = [];
  private flush(): void {
    if (this.chunks.length > 0) {
      this.parts.push(Uint8Array.from(this.chunks));
      this.chunks = [];
    }
  }
  byte(b: number): void {
    this.chunks.push(b);
  }
  shortVec(n: number): void {
    let rest = n;
    for (;;) {
      const low = rest & 0x7f;
      rest >>= 7;
      if (rest === 0) {
        this.chunks.push(low);
        return;
      }
      this.chunks.push(low | 0x80);
    }
  }
  bytes(b: Uint8Array): void {
    this.flush();
    this.parts.push(b);
  }
  address(a: string): void {
    this.bytes(addressBytes(a));
  }
  finish(): Uint8Array {
    this.flush();
    const total = this.parts.reduce((n, p) => n + p.length, 0);
    const out = new Uint8Array(total);
    let offset = 0;
    for (const p of this.parts) {
      out.set(p, offset);
      offset += p.length;
    }
    return out;
  }
}

export function serializeMessage(m: CompiledMessage): Uint8Array {
  const s = new ByteSink();
  if (m.version === 0) s.byte(0x80);
  s.byte(m.header.numRequiredSignatures);
  s.byte(m.header.numReadonlySignedAccounts);
  s.byte(m.header.numReadonlyUnsignedAccounts);
  s.shortVec(m.staticKeys.length);
  for (const key of m.staticKeys) s.address(key);
  s.address(m.recentBlockhash);
  s.shortVec(m.instructions.length);
  for (const ix of m.instructions) {
    s.byte(ix.programIdIndex);
    s.shortVec(ix.accounts.length);
    for (const a of ix.accounts) s.byte(a);
    s.shortVec(ix.data.length);
    s.bytes(ix.data);
  }
  if (m.version === 0) {
    s.shortVec(m.addressTableLookups.length);
    for (const l of m.addressTableLookups) {
      s.address(l.accountKey);
      s.shortVec(l.writableIndexes.length);
      for (const i of l.writableIndexes) s.byte(i);
      s.shortVec(l.readonlyIndexes.length);
      for (const i of l.readonlyIndexes) s.byte(i);
    }
  }
  return s.finish();
}

export interface SignedTransaction {
  message: CompiledMessage;
  signatures: Uint8Array[];
  /** The transaction as sent over the wire: signatures then message. */
  wire: Uint8Array;
}

/** Signs with every required signer, in the order of the message's signer keys. */
export function signMessage(message: CompiledMessage, signers: readonly LocalKeypair[]): SignedTransaction {
  const bytes = serializeMessage(message);
  const bySigner = new Map(signers.map((k) => [k.address, k]));
  const signatures = message.staticKeys.slice(0, message.header.numRequiredSignatures).map((key) => {
    const signer = bySigner.get(key);
    if (signer === undefined) throw new Error(`missing signer ${key}`);
    return signer.sign(bytes);
  });
  return { message, signatures, wire: assembleWire(bytes, signatures) };
}

/** Parses a wire transaction (as sendTransaction receives it) into the cluster's form. */
export function parseWireTransaction(wire: Uint8Array): SignedTransaction {
  const tx = VersionedTransaction.deserialize(wire);
  const m = tx.message;
  return {
    wire,
    signatures: tx.signatures,
    message: {
      version: m.version === 0 ? 0 : "legacy",
      header: { ...m.header },
      staticKeys: m.staticAccountKeys.map((k) => k.toBase58()),
      recentBlockhash: m.recentBlockhash,
      instructions: m.compiledInstructions.map((ix) => ({
        programIdIndex: ix.programIdIndex,
        accounts: [...ix.accountKeyIndexes],
        data: ix.data,
      })),
      addressTableLookups: m.addressTableLookups.map((l) => ({
        accountKey: l.accountKey.toBase58(),
        writableIndexes: [...l.writableIndexes],
        readonlyIndexes: [...l.readonlyIndexes],
      })),
    },
  };
}

export function isSignerIndex(m: CompiledMessage, index: number): boolean {
  return index < m.header.numRequiredSignatures;
}

/** Writability by Solana's header rules; loaded writable addresses follow the static keys. */
export function isWritableIndex(m: CompiledMessage, index: number, loadedWritableCount: number): boolean {
  const { numRequiredSignatures, numReadonlySignedAccounts, numReadonlyUnsignedAccounts } = m.header;
  const staticCount = m.staticKeys.length;
  if (index < numRequiredSignatures) return index < numRequiredSignatures - numReadonlySignedAccounts;
  if (index < staticCount) return index < staticCount - numReadonlyUnsignedAccounts;
  return index < staticCount + loadedWritableCount;
}

const ED25519_SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

/** Whether every required signature is a valid Ed25519 signature of the message by its key. */
export function verifySignatures(signed: SignedTransaction): boolean {
  const bytes = serializeMessage(signed.message);
  if (signed.signatures.length !== signed.message.header.numRequiredSignatures) return false;
  return signed.signatures.every((sig, i) => {
    const key = signed.message.staticKeys[i];
    if (key === undefined) return false;
    const publicKey = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, addressBytes(key)]), format: "der", type: "spki" });
    return verify(null, bytes, publicKey, sig);
  });
}

/** Assembles the wire form once the signatures exist (signing may happen on another thread). */
export function assembleWire(messageBytes: Uint8Array, signatures: readonly Uint8Array[]): Uint8Array {
  const s = new ByteSink();
  s.shortVec(signatures.length);
  for (const sig of signatures) s.bytes(sig);
  s.bytes(messageBytes);
  return s.finish();
}
