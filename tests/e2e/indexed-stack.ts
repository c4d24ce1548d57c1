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

/** Starts the stack and resolves once the worker has indexed the whole ledger of `history` transactions. */
export async function startIndexedStack(seed: string, history: number): Promise<IndexedStack> {
  const browser = await launchChromium();
  const cluster = await startLocalCluster({ seed, history, live: false });
  const database = await createTestDatabase();
  const standin = await startTokenStandin({
    limit: 100_000,
    extraTokens: LOCAL_TOKEN_MINTS.map((m) => ({ mint: m.address, symbol: m.symbol, name: m.name, decimals: m.decimals })),
  });
  const worker = startWorker({ DATABASE_URL: database.url, ...cluster.env });
  const server = await startWebServer({ DATABASE_URL: database.url, ...cluster.env, TOKEN_API_URL: standin.url, LOCAL_DEMO_CLUSTER: "true", RATE_LIMIT_RPM: "0" });
  const stop = async () => {
    await browser.close();
    worker.kill("SIGCONT");
    worker.kill("SIGKILL");
    await server.stop();
    await standin.stop();
    await database.drop();
    await cluster.stop();
  };
  await waitFor(
    async () => (await scannedCount(database.url)) === cluster.ledger.transactions.length,
    120_000,
    () => `the worker did not index the ledger:\n${worker.output().slice(-2000)}`,
  );
  return { browser, cluster, database, standin, worker, server, stop };
}
