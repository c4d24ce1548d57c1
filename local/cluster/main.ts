import { numberSetting } from "../../platform/number-setting";
import { requireFreePort } from "../../platform/ports";
import { exitWithOneLine } from "../../platform/startup-error";
import { startLocalCluster } from "./cluster";
import { movedPortsLine, preferredClusterPort } from "./listen";
import { startYellowstone } from "./yellowstone/server";

/**
 * `npm run localnet`: the local Solana JSON-RPC stand-in with a living market.
 * LOCALNET_PORT (unset: 8899, or another free pair when 8899 or 8900 is in use;
 * its PubSub WebSocket on the next port), LOCALNET_SEED ("localnet"), LOCALNET_HISTORY (2000
 * transactions built before serving), LOCALNET_TPS (3), LOCALNET_V0_SHARE (0.2),
 * LOCALNET_DATA_DIR (unset: the ledger lives in memory; set: kept there and
 * continued on the next start), LOCALNET_GEYSER_PORT (its Yellowstone gRPC
 * stream; unset: a free port) and LOCALNET_GEYSER_REPLAY_SLOTS (300).
 */
const startedAt = Date.now();
// An asked-for port taken is one line, before the ledger is built; the default one is only preferred (cluster.ts binds it or another pair).
const cluster = await (async () => {
  const asked = Boolean(process.env.LOCALNET_PORT);
  const port = asked ? numberSetting("LOCALNET_PORT", 0) : preferredClusterPort();
  const host = process.env.LOCALNET_HOST || "127.0.0.1";
  if (asked && port) {
    await requireFreePort(port, "LOCALNET_PORT", "the local cluster");
    // Clients look for the PubSub WebSocket on the next port, as beside a validator's 8899 on 8900.
    await requireFreePort(port + 1, "LOCALNET_PORT", "the local cluster's WebSocket, LOCALNET_PORT + 1");
  }
  return startLocalCluster({
    seed: process.env.LOCALNET_SEED || "localnet",
    port,
    portFallback: !asked,
    host,
    history: numberSetting("LOCALNET_HISTORY", 2_000),
    txPerSecond: numberSetting("LOCALNET_TPS", 3),
    v0Share: numberSetting("LOCALNET_V0_SHARE", 0.2),
    live: true,
    archiveHistory: true,
  });
})().catch((error: unknown) => exitWithOneLine("localnet", error));

// Its Yellowstone (Geyser gRPC) stream, on LOCALNET_GEYSER_PORT (unset: a free port).
const yellowstone = await startYellowstone(cluster.ledger, {
  host: process.env.LOCALNET_HOST || "127.0.0.1",
  port: numberSetting("LOCALNET_GEYSER_PORT", 0),
  replaySlots: numberSetting("LOCALNET_GEYSER_REPLAY_SLOTS", 300),
}).catch((error: unknown) => exitWithOneLine("localnet", error));
const moved = movedPortsLine(cluster);
if (moved) console.warn(`${moved} (set LOCALNET_PORT to choose)`);
const how = cluster.resumed ? "continued from its kept ledger" : "built";
console.log(`local cluster listening on ${cluster.url}, WebSocket ${cluster.wsUrl} (${cluster.ledger.transactions.length} transactions ${how} in ${Date.now() - startedAt} ms)`);
console.log("environment for the worker and the app:");
for (const [name, value] of Object.entries({ ...cluster.env, GEYSER_URL: yellowstone.url })) console.log(`  ${name}=${value}`);
console.log(`admin: POST ${cluster.url}/_admin/{faults,behind,rollback,prune,simulator,append,advance}, GET ${cluster.url}/_admin/{info,stats,expected}`);

let stopping = false;
const shutdown = (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping the local cluster`);
  Promise.all([yellowstone.stop(), cluster.stop()]).then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on("SIGINT", () => shutdown("SIGINT"));
process.on("SIGTERM", () => shutdown("SIGTERM"));
