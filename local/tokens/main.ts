import { readFileSync } from "node:fs";
import { numberSetting } from "../../platform/number-setting";
import { requireFreePort } from "../../platform/ports";
import { exitWithOneLine } from "../../platform/startup-error";
import type { TokenSpec } from "./jupiter-token";
import { startTokenStandin } from "./server";

// `npm run tokens:local`: the Jupiter-compatible stand-in on TOKENS_PORT (8787).
// TOKENS_LIMIT / TOKENS_WINDOW_MS set its own rate limit; TOKENS_EXTRA_FILE names a
// JSON array of extra token specs (the local cluster's mints).

const extraFile = process.env.TOKENS_EXTRA_FILE;
const extraTokens = extraFile ? (JSON.parse(readFileSync(extraFile, "utf8")) as TokenSpec[]) : [];

const settings = (() => {
  try {
    return {
      port: numberSetting("TOKENS_PORT", 8787, { integer: true }),
      limit: numberSetting("TOKENS_LIMIT", 30, { integer: true }),
      windowMs: numberSetting("TOKENS_WINDOW_MS", 60_000, { integer: true }),
    };
  } catch (error) {
    return exitWithOneLine("tokens:local", error);
  }
})();
const { port } = settings;
if (port) await requireFreePort(port, "TOKENS_PORT", "the token stand-in").catch((error: unknown) => exitWithOneLine("tokens:local", error));
const standin = await startTokenStandin({
  port,
  host: process.env.TOKENS_HOST ?? "127.0.0.1",
  limit: settings.limit,
  windowMs: settings.windowMs,
  apiKey: process.env.TOKENS_API_KEY || undefined,
  extraTokens,
});
console.log(`token stand-in listening on ${standin.url} (TOKEN_API_URL=${standin.url})`);

const shutdown = () => void standin.stop().then(() => process.exit(0));
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
