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

/** Discriminators as 16-hex-digit keys, for one Map lookup per instruction instead of five comparisons. */
const NAME_BY_DISCRIMINATOR_HEX = new Map<string, InstructionName>(
  INSTRUCTION_NAMES.map((name) => [bytesToHex(INSTRUCTION_DISCRIMINATORS[name]), name]),
);

export function instructionNameOf(data: Uint8Array): InstructionName | null {
  if (data.length < 8) return null;
  return NAME_BY_DISCRIMINATOR_HEX.get(bytesToHex(data.subarray(0, 8))) ?? null;
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
