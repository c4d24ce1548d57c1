import { randomBytes } from "node:crypto";
import path from "node:path";
import { gzipSync } from "node:zlib";
import postgres from "postgres";
import { connect, disconnect } from "../lib/db/client";
import { freePort, startEmbeddedPostgres, type EmbeddedDatabase } from "../platform/postgres/embedded";
import { migrateDatabase } from "../lib/db/migrate";
import { startTokenStandin } from "../local/tokens";
import { addressOf } from "../tests/helpers/fixtures";
import { DESKTOP, isolate, launchChromium, openPage } from "../tests/e2e/browser";
import { BONK, JUP, MAKER_A, offerByLabel, seedExplorer } from "../tests/e2e/seed";
import { ensureBuild, log, ROOT, startNext } from "./harness";
import { measureQuality, meetsTargets, qualityTable } from "./web-quality";

// `npm run bench:web`: for each page of the explorer, the JavaScript its first
// load sends (gzip) and first-contentful-paint / largest-contentful-paint in
// headless Chromium against the production build on localhost, median of 5
// cold loads (a new browser context each, so nothing is cached).
//
// The database: BENCH_DATABASE_URL (a PostgreSQL server on which a scratch
// database is made), else an embedded PostgreSQL. Data: the e2e seed.
// Targets: first-load JS < 200 KB gzip on every page, LCP < 1 s, and no
// wallet or trading code in any first load: the wallet panel (adapter,
// web3.js) loads on "Connect wallet", the demo wallet on "Create demo
// wallet"; both are measured on their own.
//
// Then, per page at desktop and phone widths (bench/web-quality.ts): axe-core
// violations (WCAG 2 A/AA) and Lighthouse 12's performance, accessibility and
// best-practice scores with CLS and total blocking time.
//
// BENCH_WEB_SIZES_ONLY=1: one load per page and no paint figures (sizes do
// not depend on timing, so this part needs no quiet machine).

const SIZES_ONLY = ["1", "true"].includes(process.env.BENCH_WEB_SIZES_ONLY ?? "");
const RUNS = SIZES_ONLY ? 1 : Number(process.env.BENCH_RUNS ?? 5);
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const JS_BUDGET = 200 * 1024;
/** Strings only wallet or trading code holds (the Wallet Standard handshake, web3.js's RPC client, the wallet features). */
const WALLET_MARKERS = ["wallet-standard:app-ready", "solana:signAndSendTransaction", "simulateTransaction"];
/** Any genesis hash but the public clusters': the bench's web then offers the demo wallet, as `npm start` does. */
const LOCAL_GENESIS = "BenchLocaL1111111111111111111111111111111111";
const LCP_BUDGET = 1000;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function scratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  let embedded: EmbeddedDatabase | undefined;
  let adminUrl = process.env.BENCH_DATABASE_URL;
  if (!adminUrl) {
    embedded = await startEmbeddedPostgres({ dataDir: path.join(ROOT, ".data", `bench-web-${process.pid}`), persistent: false });
    adminUrl = embedded.adminUrl;
  }
  const name = `bench_web_${randomBytes(4).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await migrateDatabase(url.toString());
  return {
    url: url.toString(),
    async drop() {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end({ timeout: 2 });
      await embedded?.stop();
    },
  };
}

interface Sample {
  fcp: number;
  lcp: number;
  initialJs: number;
  lazyJs: number;
  /** First-load scripts holding wallet or trading code (none expected). */
  walletInFirstLoad: string[];
}

await ensureBuild();
const db = await scratchDatabase();
// Through the app's own client: the store's queries rely on the JSON serializers drizzle installs.
const seedDb = connect(db.url, { max: 1 });
const sql = seedDb.$client;
const seeded = await seedExplorer(sql);
await sql`insert into chain_identity (id, genesis_hash, program_id) values (1, ${LOCAL_GENESIS}, ${"BenchProgram1111111111111111111111111111111"}) on conflict (id) do nothing`;
await disconnect(seedDb);
const standin = await startTokenStandin({ limit: 100_000 });
const port = await freePort();
// The browser's RPC points nowhere: creating the demo wallet loads its code, then its airdrop fails, which is all the bench needs.
const server = await startNext(port, {
  DATABASE_URL: db.url,
  TOKEN_API_URL: standin.url,
  PORT: String(port),
  RATE_LIMIT_RPM: "0",
  LOCAL_DEMO_CLUSTER: "true",
  PUBLIC_SOLANA_RPC_URL: "http://127.0.0.1:9/",
});
const base = `http://127.0.0.1:${port}`;
const browser = await launchChromium();

const pages: [string, string][] = [
  ["markets", "/"],
  ["book", `/book/${JUP}/${USDC}`],
  ["offer", `/offers/${offerByLabel(seeded, "jup-ask-1").pda}`],
  ["offer 404", `/offers/${addressOf("never-an-offer")}`],
  ["fills", "/fills"],
  ["fills filtered", `/fills?tokenMint=${BONK}`],
  ["maker", `/makers/${MAKER_A}`],
  ["trending", "/trending"],
  ["portfolio", "/portfolio"],
];

/** Script bytes by URL, gzipped here (level 9, as a CDN would) so the figure does not depend on the server's compression. */
const scriptCache = new Map<string, { gzip: number; wallet: boolean }>();
async function script(url: string): Promise<{ gzip: number; wallet: boolean }> {
  if (!scriptCache.has(url)) {
    const body = Buffer.from(await (await fetch(url)).arrayBuffer());
    const text = body.toString("utf8");
    scriptCache.set(url, { gzip: gzipSync(body, { level: 9 }).length, wallet: WALLET_MARKERS.some((m) => text.includes(m)) });
  }
  return scriptCache.get(url)!;
}
const gzipSize = async (url: string) => (await script(url)).gzip;

async function sample(pathAndQuery: string): Promise<Sample> {
  const context = await browser.newContext({ viewport: DESKTOP, colorScheme: "dark" });
  await isolate(context, base);
  const page = await context.newPage();
  const scripts: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "script") scripts.push(r.url());
  });
  const response = await openPage(page, base + pathAndQuery);
  const expected = pathAndQuery.includes(addressOf("never-an-offer")) ? 404 : 200;
  if (response?.status() !== expected) throw new Error(`${pathAndQuery} answered ${response?.status()}, not ${expected}: the figures would be an error page's`);
  const html = (await response?.text()) ?? "";
  // First-load JS: the scripts the server's HTML asks a modern browser for
  // (the noModule polyfills are for browsers without modules); anything
  // requested after that is loaded on demand.
  const initial = new Set(
    [...html.matchAll(/<script([^>]*)\bsrc="([^"]+)"([^>]*)>/g)]
      .filter((m) => !/nomodule/i.test(`${m[1]}${m[3]}`))
      .map((m) => new URL(m[2]!.replace(/&amp;/g, "&"), base).toString()),
  );
  const paints = await page.evaluate(
    () =>
      new Promise<{ fcp: number; lcp: number }>((resolve) => {
        const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN;
        let lcp = NaN;
        new PerformanceObserver((list) => {
          const last = list.getEntries().at(-1);
          if (last) lcp = last.startTime;
        }).observe({ type: "largest-contentful-paint", buffered: true });
        setTimeout(() => resolve({ fcp, lcp }), 250);
      }),
  );
  let initialJs = 0;
  let lazyJs = 0;
  const walletInFirstLoad: string[] = [];
  for (const url of new Set(scripts)) {
    if (!url.startsWith(base)) continue;
    if (initial.has(url)) {
      initialJs += await gzipSize(url);
      if ((await script(url)).wallet) walletInFirstLoad.push(url);
    } else lazyJs += await gzipSize(url);
  }
  await context.close();
  return { ...paints, initialJs, lazyJs, walletInFirstLoad };
}

/** Gzip bytes of the scripts a page requests while `act` runs (after its first load settled). */
async function loadedBy(page: import("playwright-core").Page, act: () => Promise<void>): Promise<number> {
  const scripts = new Set<string>();
  const note = (r: import("playwright-core").Request) => {
    if (r.resourceType() === "script" && r.url().startsWith(base)) scripts.add(r.url());
  };
  page.on("request", note);
  await act(); // waits on what the loaded code shows, so its scripts are in
  page.off("request", note);
  let bytes = 0;
  for (const url of scripts) bytes += await gzipSize(url);
  return bytes;
}

/** The wallet code, loaded on demand: the panel on "Connect wallet", the demo wallet on "Create demo wallet". */
async function walletChunks(): Promise<{ panel: number; demo: number }> {
  const context = await browser.newContext({ viewport: DESKTOP, colorScheme: "dark" });
  await isolate(context, base);
  const page = await context.newPage();
  await openPage(page, base + "/");
  const panel = await loadedBy(page, async () => {
    await page.getByRole("button", { name: "Connect wallet" }).click();
    await page.getByRole("menu").waitFor();
  });
  const demo = await loadedBy(page, async () => {
    await page.getByTestId("create-demo-wallet").click();
    await page.getByRole("alert").waitFor();
  });
  await context.close();
  return { panel, demo };
}

const rows: string[] = [];
let failures = 0;
try {
  await sample("/"); // warm the server (first requests compile nothing in production, but open the pools)
  log(`${RUNS} cold loads per page, median; JS gzip-9 of the scripts in the page's HTML (lazy: loaded after, on demand)`);
  rows.push(["page".padEnd(16), "first-load JS".padStart(14), "lazy JS".padStart(10), "FCP".padStart(8), "LCP".padStart(8)].join("  "));
  for (const [name, p] of pages) {
    const samples: Sample[] = [];
    for (let i = 0; i < RUNS; i++) samples.push(await sample(p));
    const js = median(samples.map((s) => s.initialJs));
    const lazy = median(samples.map((s) => s.lazyJs));
    const fcp = median(samples.map((s) => s.fcp));
    const lcp = median(samples.map((s) => s.lcp));
    const wallet = samples.flatMap((s) => s.walletInFirstLoad);
    const over = js > JS_BUDGET || (!SIZES_ONLY && !(lcp < LCP_BUDGET)) || wallet.length > 0;
    if (over) failures++;
    const paint = (ms: number) => (SIZES_ONLY ? "-" : `${ms.toFixed(0)} ms`).padStart(8);
    rows.push(
      [name.padEnd(16), kb(js).padStart(14), kb(lazy).padStart(10), paint(fcp), paint(lcp), over ? ` over budget${wallet.length ? ` (wallet code in first load: ${[...new Set(wallet)].join(", ")})` : ""}` : ""].join("  "),
    );
  }
  const chunks = await walletChunks();
  rows.push(`${"wallet panel".padEnd(16)}  ${kb(chunks.panel).padStart(14)}  loaded on "Connect wallet" (adapter, web3.js), in no first load`);
  rows.push(`${"demo wallet".padEnd(16)}  ${kb(chunks.demo).padStart(14)}  loaded on "Create demo wallet", in no first load`);
  console.log(rows.join("\n"));
  if (!SIZES_ONLY) {
    log("axe-core (WCAG 2 A/AA) and Lighthouse 12 per page, desktop preset and default (phone) run");
    const quality = await measureQuality(browser, base, pages.filter(([name]) => name !== "offer 404").concat([["docs", "/docs"]]));
    console.log(qualityTable(quality));
    failures += quality.filter((r) => !meetsTargets(r)).length;
  }
  log(
    `targets: first-load JS < ${kb(JS_BUDGET)}${SIZES_ONLY ? "" : `, LCP < ${LCP_BUDGET} ms`}, no wallet code in a first load${SIZES_ONLY ? "" : "; per page and width: CLS < 0.1, no axe violation, Lighthouse accessibility and best practices >= 95, no long task over 200 ms while idle and live"}: ${failures === 0 ? "all met" : `${failures} page(s) over`}`,
  );
} finally {
  await browser.close();
  server.kill("SIGTERM");
  await standin.stop();
  await db.drop();
}
process.exitCode = failures === 0 ? 0 : 1;
