import bs58 from "bs58";

/**
 * What the instruction parsers share (parse-system.ts, parse-token.ts,
 * parse-associated-token.ts): the instruction as a node's parser sees it, a
 * reader of its data, and the failure that leaves an instruction unparsed
 * (shown partially decoded, as solana-transaction-status does).
 */

/** Thrown for data or accounts a node's parser rejects: the instruction is then shown partially decoded. */
export class NotParsable extends Error {}

/** A parsed instruction's `parsed`: its type and info (a node omits a null info). */
export interface ParsedInstructionValue {
  type: string;
  info: Record<string, unknown>;
}

/** One compiled instruction and the transaction's account keys (static, then loaded writable, then loaded readonly). */
export interface InstructionView {
  accounts: readonly number[];
  keys: readonly string[];
  data: Uint8Array;
}

/** The address at `position` of the instruction's account list. */
export function accountAt(view: InstructionView, position: number): string {
  const index = view.accounts[position];
  const key = index === undefined ? undefined : view.keys[index];
  if (key === undefined) throw new NotParsable("instruction key mismatch");
  return key;
}

/** A node's check_num_accounts: fewer accounts than the instruction needs is a key mismatch. */
export function requireAccounts(view: InstructionView, count: number): void {
  if (view.accounts.length < count) throw new NotParsable("instruction key mismatch");
}

/** Every account index must name a key, and there must be at least one (each parser checks this first). */
export function requireKnownAccounts(view: InstructionView): void {
  if (view.accounts.length === 0 || Math.max(...view.accounts) >= view.keys.length) throw new NotParsable("instruction key mismatch");
}

/** Little-endian reads of instruction data, failing as a node's deserializer does on short input. */
export class ByteReader {
  private at = 0;

  constructor(private readonly data: Uint8Array) {}

  private take(n: number): Uint8Array {
    if (this.at + n > this.data.length) throw new NotParsable("instruction data too short");
    const out = this.data.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }

  private view(n: number): DataView {
    const bytes = this.take(n);
    return new DataView(bytes.buffer, bytes.byteOffset, n);
  }

  u8(): number {
    return this.take(1)[0] as number;
  }

  u16(): number {
    return this.view(2).getUint16(0, true);
  }

  u32(): number {
    return this.view(4).getUint32(0, true);
  }

  u64(): bigint {
    return this.view(8).getBigUint64(0, true);
  }

  pubkey(): string {
    return bs58.encode(this.take(32));
  }

  /** spl-token's COption<Pubkey> in instruction data: a tag byte, then the key when the tag is 1. */
  optionalPubkey(): string | null {
    const tag = this.u8();
    if (tag === 0) return null;
    if (tag === 1) return this.pubkey();
    throw new NotParsable("invalid option tag");
  }

  /** bincode's String: a u64 length, then UTF-8. */
  bincodeString(): string {
    const length = this.u64();
    if (length > BigInt(this.remaining)) throw new NotParsable("string longer than the data");
    return utf8(this.take(Number(length)));
  }

  get remaining(): number {
    return this.data.length - this.at;
  }

  rest(): Uint8Array {
    return this.take(this.remaining);
  }
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** Text that must be valid UTF-8, as Rust's from_utf8 requires. */
export function utf8(bytes: Uint8Array): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw new NotParsable("invalid UTF-8");
  }
}
