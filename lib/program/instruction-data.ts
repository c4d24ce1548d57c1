import { ByteReader, ByteWriter } from "./bytes";
import { INSTRUCTION_DISCRIMINATORS, type InstructionName, instructionNameOf } from "./discriminators";
import { type OfferSide, sideFromByte, sideToByte } from "./offer-account";

/**
 * Instruction data: the 8-byte discriminator, then the Borsh arguments
 * (docs/program.md#instructions).
 */

export interface CreateOfferArgs {
  side: OfferSide;
  nonce: bigint;
  size: bigint;
  pricePerToken: bigint;
  priceScale: number;
  minFill: bigint;
  /** Unix seconds. */
  expiresAt: bigint;
}

export interface TakeOfferArgs {
  fillAmount: bigint;
}

export type NoArgs = Record<string, never>;

export interface InstructionArgsByName {
  create_offer: CreateOfferArgs;
  take_offer: TakeOfferArgs;
  cancel_offer: NoArgs;
  expire_offer: NoArgs;
  close_offer: NoArgs;
}

export type InstructionData = {
  [N in InstructionName]: { name: N; args: InstructionArgsByName[N] };
}[InstructionName];

/** Total data length of each instruction: discriminator plus arguments. */
export const INSTRUCTION_DATA_SIZES: Readonly<Record<InstructionName, number>> = {
  create_offer: 8 + 1 + 8 + 8 + 8 + 1 + 8 + 8,
  take_offer: 8 + 8,
  cancel_offer: 8,
  expire_offer: 8,
  close_offer: 8,
};

const CREATE = { side: 8, nonce: 9, size: 17, pricePerToken: 25, priceScale: 33, minFill: 34, expiresAt: 42 } as const;
const TAKE = { fillAmount: 8 } as const;

export function encodeInstructionData(instruction: InstructionData): Uint8Array {
  const w = new ByteWriter(INSTRUCTION_DATA_SIZES[instruction.name]).raw(0, INSTRUCTION_DISCRIMINATORS[instruction.name]);
  switch (instruction.name) {
    case "create_offer": {
      const a = instruction.args;
      w.u8(CREATE.side, sideToByte(a.side), "side")
        .u64(CREATE.nonce, a.nonce, "nonce")
        .u64(CREATE.size, a.size, "size")
        .u64(CREATE.pricePerToken, a.pricePerToken, "pricePerToken")
        .u8(CREATE.priceScale, a.priceScale, "priceScale")
        .u64(CREATE.minFill, a.minFill, "minFill")
        .i64(CREATE.expiresAt, a.expiresAt, "expiresAt");
      break;
    }
    case "take_offer":
      w.u64(TAKE.fillAmount, instruction.args.fillAmount, "fillAmount");
      break;
    case "cancel_offer":
    case "expire_offer":
    case "close_offer":
      break;
  }
  return w.bytes;
}

/**
 * Decodes instruction data of the offer-book program. Returns null when the
 * discriminator is not one of the five, when the data is shorter than the
 * arguments (the program would refuse it), or when create_offer's side byte is
 * neither 0 nor 1. Trailing bytes are ignored, as Anchor's Borsh reader does.
 * Use `instructionNameOf` to tell an unknown instruction from a malformed one.
 */
export function decodeInstructionData(data: Uint8Array): InstructionData | null {
  const name = instructionNameOf(data);
  if (name === null || data.length < INSTRUCTION_DATA_SIZES[name]) return null;
  const r = new ByteReader(data);
  switch (name) {
    case "create_offer": {
      const side = sideFromByte(r.u8(CREATE.side));
      if (side === null) return null;
      return {
        name,
        args: {
          side,
          nonce: r.u64(CREATE.nonce),
          size: r.u64(CREATE.size),
          pricePerToken: r.u64(CREATE.pricePerToken),
          priceScale: r.u8(CREATE.priceScale),
          minFill: r.u64(CREATE.minFill),
          expiresAt: r.i64(CREATE.expiresAt),
        },
      };
    }
    case "take_offer":
      return { name, args: { fillAmount: r.u64(TAKE.fillAmount) } };
    case "cancel_offer":
    case "expire_offer":
    case "close_offer":
      return { name, args: {} };
  }
}
