import path from "node:path";

/**
 * Where this checkout keeps its local state: the embedded PostgreSQL, the
 * demo's ledger, `npm start`'s lock. `.data` in the working directory, or
 * OFFER_BOOK_DATA_DIR (so tests that run `npm start` leave a checkout's own
 * state alone). Read from the environment directly: it is needed before the
 * configuration is parsed, and by processes that never parse it.
 */
export function dataDir(...parts: string[]): string {
  return path.resolve(process.env.OFFER_BOOK_DATA_DIR || ".data", ...parts);
}
