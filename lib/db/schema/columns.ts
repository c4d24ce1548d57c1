import { numeric } from "drizzle-orm/pg-core";

/** An on-chain u64: exact in PostgreSQL (numeric(20,0)) and in TypeScript (bigint). */
export const u64 = (name: string) => numeric(name, { precision: 20, scale: 0, mode: "bigint" });

/** A running sum of u64 values, which outgrows 64 bits. */
export const amountSum = (name: string) => numeric(name, { mode: "bigint" });
