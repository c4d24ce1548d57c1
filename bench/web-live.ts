import { DESKTOP, PHONE, isolate, launchChromium, openPage } from "../tests/e2e/browser";
import { IDLE_LONG_TASK_BUDGET, CLS_BUDGET, watchIdle } from "./web-quality";

// npm run bench:web-live — the pages of a running explorer with its market
// live (`npm start` in another terminal: the demo traders take and create
// offers every second or so), at desktop and phone widths: each page is left
// open, idle, following its stream, for BENCH_IDLE_MS while the browser
// records its long main-thread tasks and the layout shifts the live rows
// cause (no input, so every shift counts). bench:web measures the same on a
// still seed; this is the "idle and live" half, with events arriving.
// BENCH_WEB_URL: the explorer (default http://localhost:3000).

const BASE = process.env.BENCH_WEB_URL ?? "http://localhost:3000";
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 10_000);

async function json<T>(path: string): Promise<T> {
  const response = await fetch(BASE + path);
  if (!response.ok) throw new Error(`${BASE}${path} answered ${response.status}: is the explorer running (npm start)?`);
  return (await response.json()) as T;
}

const totalFills = async () => Number((await json<{ totalFills: number }>("/v1/stats")).totalFills);

const { markets } = await json<{ markets: { tokenMint: string; paymentMint: string }[] }>("/v1/markets");
const { offers } = await json<{ offers: { pda: string; maker: string }[] }>("/v1/offers?limit=1");
const market = markets[0];
const offer = offers[0];
if (!market || !offer) throw new Error(`${BASE} has no market or open offer yet: wait for the demo market to start`);

// "fills, new": the fills from the moment the page opens, so its list starts empty and grows as fills
// arrive (the first rows of an empty list are shown at once, not held behind the pill).
const pages: [string, string | (() => string)][] = [
  ["markets", "/"],
  ["book", `/book/${market.tokenMint}/${market.paymentMint}`],
  ["offer", `/offers/${offer.pda}`],
  ["fills", "/fills"],
  ["fills, new", () => `/fills?fromTime=${Math.floor(Date.now() / 1000)}`],
  ["maker", `/makers/${offer.maker}`],
  ["trending", "/trending"],
  ["portfolio", "/portfolio"],
];

const browser = await launchChromium();
const rows: string[] = [];
let met = true;
try {
  for (const [size, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
    const context = await browser.newContext({ viewport, colorScheme: "dark" });
    await isolate(context, BASE);
    const page = await context.newPage();
    for (const [name, path] of pages) {
      await openPage(page, BASE + (typeof path === "string" ? path : path()));
      const before = await totalFills();
      const idle = await watchIdle(page, IDLE_MS);
      const fills = (await totalFills()) - before;
      const state = await page.evaluate(() => document.querySelector('[data-testid="live-indicator"]')?.getAttribute("data-state") ?? "-");
      // Fills waiting behind the page's "N new fills" pill at the end of the window.
      const held = await page.evaluate(() => document.querySelector<HTMLElement>('[data-testid="new-rows-pill"]')?.dataset.count ?? "0");
      const ok = idle.longestTask <= IDLE_LONG_TASK_BUDGET && idle.shift < CLS_BUDGET;
      met &&= ok;
      rows.push(
        [name.padEnd(10), size.padEnd(7), String(fills).padStart(5), `${Math.round(idle.longestTask)} ms`.padStart(9), String(idle.tasksOver50).padStart(6), idle.shift.toFixed(3).padStart(6), held.padStart(4), state.padEnd(9), ok ? "" : "over"].join("  "),
      );
      console.log(rows.at(-1));
    }
    await context.close();
  }
} finally {
  await browser.close();
}
console.log(`\n${["page".padEnd(10), "width".padEnd(7), "fills", "longest".padStart(9), "tasks".padStart(6), "shift".padStart(6), "held", "stream"].join("  ")}`);
for (const row of rows) console.log(row);
console.log(`\n${IDLE_MS / 1000} s a page at ${BASE}; fills: the market's fills meanwhile; tasks: main-thread tasks over 50 ms; shift: layout shift summed, no input; held: new fills waiting behind the pill at the end`);
console.log(`targets: no task over ${IDLE_LONG_TASK_BUDGET} ms and layout shift < ${CLS_BUDGET} while idle and live: ${met ? "met" : "MISSED"}`);
process.exit(met ? 0 : 1);
