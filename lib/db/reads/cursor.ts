// Opaque keyset cursors: the sort key of a page's last row, base64url-encoded.

/** A cursor that no earlier page handed out; the API answers it as an invalid `cursor` parameter. */
export class InvalidCursorError extends Error {
  override name = "InvalidCursorError";
  constructor() {
    super("cursor must be a nextCursor value from an earlier page");
  }
}

export interface OfferCursor {
  createdAt: number; // unix seconds
  pda: string;
}

export interface FillCursor {
  slot: bigint;
  signature: string;
  ixIndex: number;
}

const encode = (parts: string[]) => Buffer.from(parts.join(":"), "utf8").toString("base64url");

function decode(value: string, count: number): string[] {
  const parts = Buffer.from(value, "base64url").toString("utf8").split(":");
  if (parts.length !== count || parts.some((p) => p === "")) throw new InvalidCursorError();
  return parts;
}

const digits = /^\d{1,20}$/;
const base58 = /^[1-9A-HJ-NP-Za-km-z]{32,88}$/;

export const encodeOfferCursor = (c: OfferCursor) => encode([String(c.createdAt), c.pda]);

export function decodeOfferCursor(value: string): OfferCursor {
  const [createdAt = "", pda = ""] = decode(value, 2);
  if (!digits.test(createdAt) || !base58.test(pda)) throw new InvalidCursorError();
  return { createdAt: Number(createdAt), pda };
}

export const encodeFillCursor = (c: FillCursor) => encode([c.slot.toString(), c.signature, String(c.ixIndex)]);

export function decodeFillCursor(value: string): FillCursor {
  const [slot = "", signature = "", ixIndex = ""] = decode(value, 3);
  if (!digits.test(slot) || !base58.test(signature) || !/^\d{1,9}$/.test(ixIndex)) {
    throw new InvalidCursorError();
  }
  return { slot: BigInt(slot), signature, ixIndex: Number(ixIndex) };
}
