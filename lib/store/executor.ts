import type { Database } from "../db/client";

/** A database or a transaction on it: every store function runs in either. */
export type Executor = Database | Parameters<Parameters<Database["transaction"]>[0]>[0];
