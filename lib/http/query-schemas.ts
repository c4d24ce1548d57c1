import { z } from "zod";
import { ApiError } from "./errors";
import { address, cursor, limit, offset, side, status, unixSeconds } from "./params";

// The query parameters of each /v1 list, as api-decisions.md fixes them.

const page = { limit, offset, cursor: cursor.optional() };

export const offerListQuery = {
  status: status.default("open"),
  maker: address("maker").optional(),
  tokenMint: address("tokenMint").optional(),
  paymentMint: address("paymentMint").optional(),
  side: side.optional(),
  sort: z.enum(["created", "price"], { message: "sort must be created or price" }).default("created"),
  ...page,
};

export const makerOfferListQuery = { status: status.default("open"), ...page };

export const fillListQuery = {
  taker: address("taker").optional(),
  maker: address("maker").optional(),
  offerPda: address("offerPda").optional(),
  tokenMint: address("tokenMint").optional(),
  paymentMint: address("paymentMint").optional(),
  fromTime: unixSeconds("fromTime").optional(),
  toTime: unixSeconds("toTime").optional(),
  ...page,
};

export const offerFillListQuery = { ...page, limit: limit.default(200) };

/** Rules across parameters, checked after each parameter on its own is valid. */
export function checkPage(q: { cursor?: string; offset: number }): void {
  if (q.cursor !== undefined && q.offset !== 0) {
    throw new ApiError("invalid_parameter", "cursor and offset cannot be combined: a cursor already marks the position", "offset");
  }
}

export function checkTimeRange(q: { fromTime?: number; toTime?: number }): void {
  if (q.fromTime !== undefined && q.toTime !== undefined && q.fromTime > q.toTime) {
    throw new ApiError("invalid_parameter", "fromTime must not be after toTime", "fromTime");
  }
}

export function checkBookSort(q: { sort: string; tokenMint?: string; paymentMint?: string; cursor?: string }): void {
  if (q.sort !== "price") return;
  if (!q.tokenMint || !q.paymentMint) {
    throw new ApiError("invalid_parameter", "sort=price needs tokenMint and paymentMint (one book)", q.tokenMint ? "paymentMint" : "tokenMint");
  }
  if (q.cursor !== undefined) throw new ApiError("invalid_parameter", "sort=price pages by offset, not by cursor", "cursor");
}
