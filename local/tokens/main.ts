import { readFileSync } from "node:fs";
import { requireFreePort } from "../../lib/ports";
import { exitWithOneLine } from "../../lib/startup-error";
import type { TokenSpec } from "./data";
import { startTokenStandin } from "./server";

// `npm run tokens:local`: the Jupiter-compatible stand-in on TOKENS_PORT (8787).
// TOKENS_LIMIT / TOKENS_WINDOW_MS set its own rate limit; TOKENS_EXTRA_FILE names a
// JSON array of extra token specs (the local cluster's mints).

const int = (name: string, fallback: number) => {
  const value = process.env[name];
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer`);
  return n;
};

const extraFile = process.env.TOKENS_EXTRA_FILE;
const extraTokens = extraFile ? (JSON.parse(readFileSync(extraFile, "utf8")) as TokenSpec[]) : [];

const port = int("TOKENS_PORT", 8787);
if (port) await requireFreePort(port, "TOKENS_PORT", "the token stand-in").catch((error: unknown) => exitWithOneLine("tokens:local", error));
const standin = await startTokenStandin({
  port,
  host: process.env.TOKENS_HOST ?? "127.0.0.1",
  limit: int("TOKENS_LIMIT", 30),
  windowMs: int("TOKENS_WINDOW_MS", 60_000),
  apiKey: process.env.TOKENS_API_KEY || undefined,
  extraTokens,
});
console.log(`token stand-in listening on ${standin.url} (TOKEN_API_URL=${standin.url})`);

const shutdown = () => void standin.stop().then(() => process.exit(0));
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
