import { sha256 } from "@noble/hashes/sha2";

/**
 * Anchor discriminators: the first 8 bytes of sha256 of a preimage. They are
 * computed rather than pasted so a typo in a hex literal cannot go unnoticed;
 * the unit tests pin them to the hex in docs/program.md#discriminators.
 */
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

export function anchorDiscriminator(preimage: string): Uint8Array {
  return sha256(new TextEncoder().encode(preimage)).slice(0, 8);
}

export const INSTRUCTION_NAMES = ["create_offer", "take_offer", "cancel_offer", "expire_offer", "close_offer"] as const;
export type InstructionName = (typeof INSTRUCTION_NAMES)[number];

export const OFFER_ACCOUNT_DISCRIMINATOR: Uint8Array = anchorDiscriminator("account:Offer");

export const INSTRUCTION_DISCRIMINATORS: Readonly<Record<InstructionName, Uint8Array>> = {
  create_offer: anchorDiscriminator("global:create_offer"),
  take_offer: anchorDiscriminator("global:take_offer"),
  cancel_offer: anchorDiscriminator("global:cancel_offer"),
  expire_offer: anchorDiscriminator("global:expire_offer"),
  close_offer: anchorDiscriminator("global:close_offer"),
};

/** A discriminator's first four bytes as one number (little-endian). */
const prefix32 = (bytes: Uint8Array) => (bytes[0]! | (bytes[1]! << 8) | (bytes[2]! << 16) | (bytes[3]! << 24)) >>> 0;

/**
 * Names by their discriminator's first four bytes, for one Map lookup and an
 * 8-byte comparison per instruction: a hex string of the eight bytes as the
 * key (built per instruction) cost more than the decode around it (a worker
 * CPU profile, 2026-11-26). The five prefixes differ (checked here).
 */
const NAME_BY_PREFIX = new Map<number, InstructionName>(INSTRUCTION_NAMES.map((name) => [prefix32(INSTRUCTION_DISCRIMINATORS[name]), name]));
if (NAME_BY_PREFIX.size !== INSTRUCTION_NAMES.length) throw new Error("two instruction discriminators share their first four bytes");

export function instructionNameOf(data: Uint8Array): InstructionName | null {
  if (data.length < 8) return null;
  const name = NAME_BY_PREFIX.get(prefix32(data));
  return name !== undefined && hasDiscriminator(data, INSTRUCTION_DISCRIMINATORS[name]) ? name : null;
}

export function hasDiscriminator(data: Uint8Array, discriminator: Uint8Array): boolean {
  if (data.length < discriminator.length) return false;
  for (let i = 0; i < discriminator.length; i++) if (data[i] !== discriminator[i]) return false;
  return true;
}

export function bytesToHex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += HEX[b];
  return out;
}

export function hexToBytes(hex: string): Uint8Array {
  const clean = hex.replace(/\s+/g, "");
  if (clean.length % 2 !== 0 || /[^0-9a-fA-F]/.test(clean)) throw new Error(`not a hex string: ${hex}`);
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(i * 2, i * 2 + 2), 16);
  return out;
}
