import bs58 from "bs58";
import type { AddressTableLookup, CompiledInstruction, CompiledMessage, SignedTransaction } from "./wire";

/**
 * A wire transaction the cluster itself wrote (its kept ledger), read without
 * web3.js: the same result as parseWireTransaction at a fraction of the cost,
 * since replaying a long ledger at start reads every transaction again and
 * the same few thousand addresses recur (their base58 is cached).
 */

const base58Cache = new Map<string, string>();

function address(bytes: Uint8Array, at: number): string {
  const key = Buffer.from(bytes.buffer, bytes.byteOffset + at, 32).toString("latin1");
  let text = base58Cache.get(key);
  if (text === undefined) {
    text = bs58.encode(bytes.subarray(at, at + 32));
    if (base58Cache.size >= 200_000) base58Cache.clear();
    base58Cache.set(key, text);
  }
  return text;
}

export function readWireTransaction(wire: Uint8Array): SignedTransaction {
  let at = 0;
  const fail = (what: string): never => {
    throw new Error(`malformed wire transaction: ${what} at byte ${at}`);
  };
  const byte = (): number => (at < wire.length ? (wire[at++] as number) : fail("truncated"));
  const shortVec = (): number => {
    let value = 0;
    for (let shift = 0; shift < 21; shift += 7) {
      const b = byte();
      value |= (b & 0x7f) << shift;
      if ((b & 0x80) === 0) return value;
    }
    return fail("shortvec too long");
  };
  const bytes = (n: number): Uint8Array => {
    if (at + n > wire.length) fail("truncated");
    const out = wire.subarray(at, at + n);
    at += n;
    return out;
  };
  const indexes = (): number[] => Array.from(bytes(shortVec()));

  const signatures = Array.from({ length: shortVec() }, () => bytes(64));
  const first = byte();
  const versioned = (first & 0x80) !== 0;
  if (versioned && (first & 0x7f) !== 0) fail(`unsupported version ${first & 0x7f}`);
  const numRequiredSignatures = versioned ? byte() : first;
  const header = { numRequiredSignatures, numReadonlySignedAccounts: byte(), numReadonlyUnsignedAccounts: byte() };
  const staticKeys = Array.from({ length: shortVec() }, () => {
    bytes(32);
    return address(wire, at - 32);
  });
  bytes(32);
  const recentBlockhash = address(wire, at - 32);
  const instructions: CompiledInstruction[] = Array.from({ length: shortVec() }, () => ({
    programIdIndex: byte(),
    accounts: indexes(),
    data: bytes(shortVec()),
  }));
  const addressTableLookups: AddressTableLookup[] = versioned
    ? Array.from({ length: shortVec() }, () => {
        bytes(32);
        return { accountKey: address(wire, at - 32), writableIndexes: indexes(), readonlyIndexes: indexes() };
      })
    : [];
  if (at !== wire.length) fail("trailing bytes");
  const message: CompiledMessage = { version: versioned ? 0 : "legacy", header, staticKeys, recentBlockhash, instructions, addressTableLookups };
  return { wire, signatures, message };
}
