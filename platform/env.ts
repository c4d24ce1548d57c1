import { z } from "zod";

/**
 * The server's configuration, parsed once from the process environment.
 * Every setting the services read is declared here, with its default, so a
 * misconfiguration fails at start with a message naming the variable.
 */
const optionalUrl = z.url().optional();
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const booleanFlag = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v === "true" || v === "1");

export const serverEnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: optionalUrl,
  DATABASE_POOL_SIZE: positiveInt(10),
  /** Streaming replicas for the web's reads, comma-separated URLs (docs/scale.md); DATABASE_URL stays the primary. */
  DATABASE_READ_URL: z
    .string()
    .optional()
    .transform((v) => (v ?? "").split(",").map((u) => u.trim()).filter(Boolean))
    .pipe(z.array(z.url())),
  /** The primary without a pooler, for LISTEN and the worker's advisory lock; default DATABASE_URL. */
  DATABASE_DIRECT_URL: optionalUrl,
  /** `transaction`: DATABASE_URL and DATABASE_READ_URL go through a transaction-mode pooler (no prepared statements). */
  DATABASE_POOL_MODE: z.enum(["session", "transaction"]).default("session"),
  /** Replay lag (ms) past which a replica's reads go to the primary, until it is under it again. */
  REPLICA_MAX_LAG: z.coerce.number().int().positive().default(2000),
  /** How long (ms) a stream's backlog waits for a replica to reach the announced id before reading the primary. */
  REPLICA_WAIT_MS: z.coerce.number().int().min(0).default(1000),
  SOLANA_RPC_URL: optionalUrl,
  /** The RPC URL browsers use (balances, simulation, sending); default SOLANA_RPC_URL. Set it when SOLANA_RPC_URL carries a key browsers must not see. */
  PUBLIC_SOLANA_RPC_URL: optionalUrl,
  /** The RPC's PubSub WebSocket (ws:// or wss://); unset: derived from SOLANA_RPC_URL as @solana/web3.js does (lib/rpc/ws-url.ts). */
  SOLANA_WS_URL: z.url({ protocol: /^wss?$/, error: "must be a ws:// or wss:// URL" }).optional(),
  SOLANA_COMMITMENT: z.enum(["confirmed", "finalized"]).default("confirmed"),
  PROGRAM_ID: z.string().optional(),
  TREASURY_ADDRESS: z.string().optional(),
  TOKEN_API_URL: z.url().default("https://api.jup.ag"),
  TOKEN_API_KEY: z.string().optional(),
  TOKEN_API_RPM: positiveInt(24),
  REDIS_URL: optionalUrl,
  PORT: positiveInt(3000),
  /** Requests per minute one client IP may make to /v1; 0 turns the budget off. */
  RATE_LIMIT_RPM: z.coerce.number().int().min(0).default(1200),
  /** gzip in the web process; false when a proxy in front compresses. Read by next.config.mjs at `next start`. */
  COMPRESS: z
    .enum(["true", "false", "1", "0", ""])
    .optional()
    .transform((v) => v !== "false" && v !== "0"),
  /** Behind a proxy: the client IP is the last x-forwarded-for hop, the one the proxy appended (web/http/api.ts clientKey). */
  TRUST_PROXY: booleanFlag,
  /** Set by `npm start` when it runs the local demo cluster. */
  LOCAL_DEMO_CLUSTER: booleanFlag,
  /** The scanner worker. */
  SCAN_INTERVAL_MS: positiveInt(1000),
  /**
   * Transactions per database transaction (with the checkpoint) during a
   * backfill. Each batch upserts the same aggregate rows (a maker's figures,
   * a pair's candles and book) once whatever its size, so larger batches do
   * that work less often: 2000 against 500 took PostgreSQL's CPU a
   * transaction from 0.230 to 0.163 ms at 100,000 (docs/benchmarks.md,
   * session 20). A live round's batch is whatever arrived, far fewer.
   */
  SCAN_BATCH_SIZE: positiveInt(2000),
  /** getTransaction in JSON-RPC batches: auto (until the node refuses one), true (always), false (one call each). */
  RPC_BATCH: z
    .enum(["auto", "true", "false", "1", "0"])
    .default("auto")
    .transform((v) => (v === "auto" ? "auto" : v === "true" || v === "1" ? "on" : "off")),
  /**
   * getTransaction calls in one batch; unset: 25 without a request budget,
   * 100 with one (RPC_RPS). A batch's reply is one string, and above about
   * 128 KB (some 40 transactions in the `json` encoding) V8 keeps it in its
   * large-object space, where it costs several times more to build and
   * collect (docs/benchmarks.md, "Third pass"); where requests are rationed,
   * fewer of them matter more.
   */
  RPC_BATCH_SIZE: z.coerce.number().int().positive().optional(),
  /** Requests per second the worker may send the RPC; 0: no budget (a local node). */
  RPC_RPS: z.coerce.number().min(0).default(0),
  RPC_CONCURRENCY: positiveInt(16),
  RPC_TIMEOUT_MS: positiveInt(15_000),
  RECONCILE_INTERVAL_MS: positiveInt(300_000),
  /** A Yellowstone (Geyser gRPC) endpoint, http:// or https://: the worker takes live transactions from it and keeps SOLANA_RPC_URL for backfill and gaps. Unset: the RPC alone. */
  GEYSER_URL: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL (the gRPC endpoint)" }).optional(),
  /** Sent as the x-token header to GEYSER_URL. */
  GEYSER_TOKEN: z.string().optional(),
  /** No message (pings included) from the Geyser stream for this long: it is stalled, replaced by a new one. */
  GEYSER_STALL_MS: positiveInt(30_000),
  /** The live feed (GET /v1/stream): hours of events kept for resuming readers (the worker prunes older ones). */
  FEED_RETENTION_HOURS: z.coerce.number().positive().default(168),
  /** Open streams one client IP may hold on one web process. */
  STREAM_MAX_PER_CLIENT: positiveInt(10),
  /** Bytes a stream keeps in memory for its reader; a reader further behind is served from the log. */
  STREAM_QUEUE_BYTES: positiveInt(262_144),
  /** A stream whose reader makes no room in its full queue for this long is cut off (it resumes with Last-Event-ID). */
  STREAM_STALL_MS: positiveInt(30_000),
  /** A comment line this often keeps proxies from closing an idle stream. */
  STREAM_HEARTBEAT_MS: positiveInt(15_000),
  /** The `retry:` a stream tells clients: how long to wait before reconnecting. */
  STREAM_RETRY_MS: positiveInt(2_000),
  WORKER_HEALTH_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Log lines for people (`pretty`) or collectors (`json`); default: pretty on a terminal, JSON otherwise. */
  LOG_FORMAT: z.enum(["pretty", "json"]).optional(),
});

export type ServerEnv = z.infer<typeof serverEnvSchema>;

export class EnvError extends Error {
  override name = "EnvError";
}

export function parseServerEnv(source: NodeJS.ProcessEnv = process.env): ServerEnv {
  // An empty variable means "unset", as in most deployment tools.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ""));
  const result = serverEnvSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new EnvError(`Invalid environment:\n${lines.join("\n")}`);
  }
  return result.data;
}

/** getTransaction calls in one batch: RPC_BATCH_SIZE, or by default 25 without a request budget and 100 with one (see RPC_BATCH_SIZE). */
export function rpcBatchSize(config: Pick<ServerEnv, "RPC_BATCH_SIZE" | "RPC_RPS">): number {
  return config.RPC_BATCH_SIZE ?? (config.RPC_RPS > 0 ? 100 : 25);
}

let cached: ServerEnv | undefined;

/** The parsed environment of this process, read on first use. */
export function env(): ServerEnv {
  cached ??= parseServerEnv();
  return cached;
}
