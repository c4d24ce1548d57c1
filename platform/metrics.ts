import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/**
 * The web process's Prometheus metrics. Next loads server modules in several
 * bundles, each with its own copy of this file, so the registry and its
 * metrics live on globalThis: made once, shared by every copy, never cleared.
 */
export interface WebMetrics {
  registry: Registry;
  /** One observation per /v1 request: its count is the request count by route and status. */
  requestSeconds: Histogram<"route" | "status">;
  rateLimited: Counter;
  providerCalls: Counter<"outcome">;
  tokenCache: Counter<"result">;
  /** This application's connections as PostgreSQL counts them, by state; filled at scrape time. */
  dbConnections: Gauge<"state">;
  dbPoolMax: Gauge;
  dbUp: Gauge;
  /** Open GET /v1/stream connections on this process. */
  streamsOpen: Gauge;
  /** Streams cut off because their reader did not keep up. */
  streamCutOffs: Counter;
  reads: Counter<"target" | "outcome">;
  replicaServing: Gauge<"replica">;
}

export interface DatabaseProbe {
  poolMax: number;
  /** Connections by state (active, idle, ...); throws when the database is unreachable. */
  connectionsByState(): Promise<Record<string, number>>;
}

function createWebMetrics(): WebMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 100 });
  const registers = [registry];
  return {
    registry,
    requestSeconds: new Histogram({
      name: "offer_book_http_request_duration_seconds",
      help: "Time to answer a /v1 request, by route pattern and status",
      labelNames: ["route", "status"],
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    rateLimited: new Counter({
      name: "offer_book_rate_limited_total",
      help: "Requests refused with 429 because the client was over its budget",
      registers,
    }),
    providerCalls: new Counter({
      name: "offer_book_token_provider_calls_total",
      help: "Calls to the token provider, by outcome",
      labelNames: ["outcome"],
      registers,
    }),
    tokenCache: new Counter({
      name: "offer_book_token_cache_lookups_total",
      help: "Token cache lookups, by result (hit, miss, stale)",
      labelNames: ["result"],
      registers,
    }),
    dbConnections: new Gauge({
      name: "offer_book_db_connections",
      help: "Connections of the web's application name in pg_stat_activity, by state (all web instances)",
      labelNames: ["state"],
      registers,
    }),
    dbPoolMax: new Gauge({ name: "offer_book_db_pool_max", help: "Most connections this process's pool opens", registers }),
    dbUp: new Gauge({ name: "offer_book_db_up", help: "1 when the last scrape reached the database, else 0", registers }),
    streamsOpen: new Gauge({ name: "offer_book_streams_open", help: "Open /v1/stream connections on this process", registers }),
    reads: new Counter({
      name: "offer_book_db_reads_total",
      help: "Read statements by where they ran (replica, primary) and outcome (ok, retried_on_primary)",
      labelNames: ["target", "outcome"],
      registers,
    }),
    replicaServing: new Gauge({
      name: "offer_book_replica_serving",
      help: "1 while a replica is up and within REPLICA_MAX_LAG, else 0",
      labelNames: ["replica"],
      registers,
    }),
    streamCutOffs: new Counter({
      name: "offer_book_stream_cut_offs_total",
      help: "Streams cut off because their reader did not keep up (it resumes with Last-Event-ID)",
      registers,
    }),
  };
}

const holder = globalThis as typeof globalThis & { __offerBookWebMetrics?: WebMetrics };

export function webMetrics(): WebMetrics {
  return (holder.__offerBookWebMetrics ??= createWebMetrics());
}

/** The exposition text, with the database gauges read now (a down database reads as db_up 0, not a failed scrape). */
export async function scrape(probe: DatabaseProbe): Promise<{ contentType: string; text: string }> {
  const metrics = webMetrics();
  metrics.dbPoolMax.set(probe.poolMax);
  try {
    const byState = await probe.connectionsByState();
    metrics.dbConnections.reset();
    for (const [state, count] of Object.entries(byState)) metrics.dbConnections.set({ state }, count);
    metrics.dbUp.set(1);
  } catch {
    metrics.dbConnections.reset();
    metrics.dbUp.set(0);
  }
  return { contentType: metrics.registry.contentType, text: await metrics.registry.metrics() };
}

type Observer = (route: string, status: number, seconds: number) => void;

/** The /v1 wrapper's observer: label children cached per route and status, so a request costs one map lookup. */
export function requestObserver(metrics: WebMetrics = webMetrics()): Observer {
  const children = new Map<string, Map<number, { observe(value: number): void }>>();
  return (route, status, seconds) => {
    let byStatus = children.get(route);
    if (!byStatus) children.set(route, (byStatus = new Map()));
    let child = byStatus.get(status);
    if (!child) byStatus.set(status, (child = metrics.requestSeconds.labels(route, String(status))));
    child.observe(seconds);
  };
}
