import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { jsonRpc } from "../../lib/rpc/json-rpc";

/**
 * Measures the local cluster as the worker uses it: ledger build time, paging
 * getSignaturesForAddress, then getTransaction throughput single and in
 * batches over keep-alive connections. The cluster runs in its own process
 * (as with `npm run localnet`) so the load generator does not share its
 * event loop; on 2 cores they still share the machine, so the numbers are a floor.
 * `npx tsx local/cluster/bench.ts [history=100000] [seconds=10]`
 */
const history = Number(process.argv[2] ?? 100_000);
const seconds = Number(process.argv[3] ?? 10);
const port = 18_000 + Math.floor(Math.random() * 1000);

const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("./main.ts", import.meta.url))], {
  env: { ...process.env, LOCALNET_PORT: String(port), LOCALNET_HISTORY: String(history), LOCALNET_TPS: "0", LOCALNET_SEED: "bench" },
  stdio: ["ignore", "pipe", "inherit"],
});
const url = await new Promise<string>((resolve, reject) => {
  let output = "";
  let ready = false;
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    const line = output.split("\n").find((l) => l.startsWith("local cluster listening"));
    if (line && !ready) {
      ready = true;
      console.log(line);
      resolve(`http://127.0.0.1:${port}`);
    }
  });
  child.on("exit", (code) => reject(new Error(`cluster exited with ${code}`)));
});

const info = (await (await fetch(`${url}/_admin/info`)).json()) as { programId: string };
const pagingStarted = performance.now();
const signatures: string[] = [];
let before: string | undefined;
for (;;) {
  const page = await jsonRpc<Array<{ signature: string }>>(url, "getSignaturesForAddress", [info.programId, { limit: 1000, before, commitment: "confirmed" }]);
  signatures.push(...page.map((p) => p.signature));
  if (page.length < 1000) break;
  before = page[page.length - 1]?.signature;
}
console.log(`paged ${signatures.length} signatures in ${(performance.now() - pagingStarted).toFixed(0)} ms`);

let cursor = 0;
const nextSignature = () => signatures[cursor++ % signatures.length] as string;
const config = { encoding: "json", maxSupportedTransactionVersion: 0, commitment: "confirmed" };

async function run(label: string, batch: number): Promise<void> {
  const result = await autocannon({
    url,
    method: "POST",
    connections: batch === 1 ? 32 : 4,
    duration: seconds,
    headers: { "content-type": "application/json" },
    requests: [
      {
        setupRequest: (req) => {
          const calls = Array.from({ length: batch }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "getTransaction", params: [nextSignature(), config] }));
          return { ...req, body: JSON.stringify(batch === 1 ? calls[0] : calls) };
        },
      },
    ],
  });
  const perSecond = (result.requests.average * batch).toFixed(0);
  console.log(`${label}: ${result.requests.average.toFixed(0)} req/s = ${perSecond} transactions/s, p99 ${result.latency.p99} ms, errors ${result.errors + result.non2xx}`);
}

await run("getTransaction single", 1);
await run("getTransaction batch of 100", 100);
child.kill("SIGTERM");
process.exit(0);
