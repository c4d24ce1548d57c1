import type { Browser } from "playwright-core";
import { LOCAL_TOKEN_MINTS, startLocalCluster, type LocalCluster } from "../../local/cluster";
import { startTokenStandin, type TokenStandin } from "../../local/tokens";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { startWebServer, type WebServer } from "../helpers/server";
import { scannedCount, startWorker, waitFor, type WorkerProcess } from "../helpers/worker";
import { launchChromium } from "./browser";

// What `npm start` runs, for the browser suites: the local cluster's ledger
// indexed by the worker, the token stand-in knowing the cluster's mints, the
// web through its launcher, and Debian's Chromium.

export interface IndexedStack {
  browser: Browser;
  cluster: LocalCluster;
  database: TestDatabase;
  standin: TokenStandin;
  worker: WorkerProcess;
  server: WebServer;
  stop(): Promise<void>;
}

/** Starts the stack and resolves once the worker has indexed the whole ledger of `history` transactions; a failed start stops what it started. */
export async function startIndexedStack(seed: string, history: number): Promise<IndexedStack> {
  const parts: Partial<Omit<IndexedStack, "stop">> = {};
  const stop = async () => {
    await parts.browser?.close();
    parts.worker?.kill("SIGCONT");
    parts.worker?.kill("SIGKILL");
    await parts.server?.stop();
    await parts.standin?.stop();
    await parts.database?.drop();
    await parts.cluster?.stop();
  };
  try {
    parts.browser = await launchChromium();
    const cluster = (parts.cluster = await startLocalCluster({ seed, history, live: false }));
    const database = (parts.database = await createTestDatabase());
    parts.standin = await startTokenStandin({
      limit: 100_000,
      extraTokens: LOCAL_TOKEN_MINTS.map((m) => ({ mint: m.address, symbol: m.symbol, name: m.name, decimals: m.decimals })),
    });
    const worker = (parts.worker = startWorker({ DATABASE_URL: database.url, ...cluster.env }));
    parts.server = await startWebServer({ DATABASE_URL: database.url, ...cluster.env, TOKEN_API_URL: parts.standin.url, LOCAL_DEMO_CLUSTER: "true", RATE_LIMIT_RPM: "0" });
    await waitFor(
      async () => (await scannedCount(database.url)) === cluster.ledger.transactions.length,
      120_000,
      () => `the worker did not index the ledger:\n${worker.output().slice(-2000)}`,
    );
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
  return { ...(parts as Omit<IndexedStack, "stop">), stop };
}
