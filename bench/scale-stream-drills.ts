import os from "node:os";
import type { ScaleStack } from "../scripts/scale/topology";
import { StreamReaders, type StreamRecord } from "./scale-streams";
import { compareToLog, feedLog, metric, newestFeedId, percentile, ResumingStream, sleep, type FeedLog } from "./scale-probes";

// bench:scale's stream drills: replica correctness with delivery times, and a
// web process SIGKILLed under its streams. The streams are bench/scale-streams.ts's
// light readers on worker threads; one stream per web process read by a real
// parser (eventsource-parser) runs beside them as a check on their ids.

export type Print = (line: string) => void;
export const STREAMS = Number(process.env.BENCH_STREAMS ?? 1000);
const THREADS = Number(process.env.BENCH_READER_THREADS ?? 4);
const CORRECTNESS_S = Number(process.env.BENCH_CORRECTNESS_S ?? 30);
export const verdict = (ok: boolean) => (ok ? "met" : "missed");
export const ms = (n: number) => `${Math.round(n)} ms`;

interface Tally {
  events: number;
  gaps: number;
  duplicates: number;
}

function tally(streams: { ids: ArrayLike<number> }[], log: FeedLog, start: number): Tally {
  const t: Tally = { events: 0, gaps: 0, duplicates: 0 };
  for (const s of streams) {
    const c = compareToLog(s.ids, log.ids, start, s.ids.length ? s.ids[s.ids.length - 1]! : start);
    t.gaps += c.gaps;
    t.duplicates += c.duplicates;
    t.events += s.ids.length;
  }
  return t;
}

/** Delivery: each event's arrival minus its commit, for events committed in [from, to] (backlogs at open are not delivery). */
function deliveryDelays(records: StreamRecord[], log: FeedLog, from: number, to: number): number[] {
  const delays: number[] = [];
  for (const r of records) {
    for (let i = 0; i < r.ids.length; i++) {
      const committed = log.committedAt.get(r.ids[i]!);
      if (committed !== undefined && committed >= from && committed <= to) delays.push(r.at[i]! - committed);
    }
  }
  return delays;
}

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

/** Replica correctness: streams on each web process and book reads checked against what that process streamed; delivery times. */
export async function correctness(stack: ScaleStack, print: Print): Promise<void> {
  await stack.setApplyDelay(500);
  const markets = (await (await fetch(`${stack.webUrls[0]}/v1/markets`)).json()) as { markets: { tokenMint: string; paymentMint: string }[] };
  const market = markets.markets[0];
  if (!market) throw new Error("no market indexed yet");
  const bookPath = `/v1/book?tokenMint=${market.tokenMint}&paymentMint=${market.paymentMint}`;
  const start = await newestFeedId(stack.primaryUrl);
  const openedAt = Date.now();
  const readers = await StreamReaders.open(
    stack.webUrls.flatMap((baseUrl, group) => Array.from({ length: STREAMS }, () => ({ baseUrl, path: "/v1/stream", after: start, group }))),
    THREADS,
  );
  const reference = stack.webUrls.map((url) => new ResumingStream(() => url, "/v1/stream"));
  await Promise.all(reference.map((s) => s.open(start)));
  const from = Date.now();
  print(`  ${STREAMS} streams × ${stack.webUrls.length} web processes open in ${ms(from - openedAt)} (${THREADS} reader threads), load average ${load()}`);
  let answers = 0;
  let older = 0;
  let notModified = 0;
  const end = Date.now() + CORRECTNESS_S * 1000;
  await Promise.all(
    stack.webUrls.map(async (url, i) => {
      let etag: string | null = null;
      let feedId = 0;
      while (Date.now() < end) {
        // The newest id any stream of this process had received before asking.
        const streamed = Math.max(readers.newest(i), reference[i]!.ids.at(-1) ?? 0);
        const response: Response = await fetch(`${url}${bookPath}`, { headers: etag ? { "if-none-match": etag } : {} });
        answers++;
        if (response.status === 304) notModified++;
        else {
          feedId = Number(((await response.json()) as { feedId: string }).feedId);
          etag = response.headers.get("etag");
        }
        if (feedId < streamed) older++;
        await sleep(20);
      }
    }),
  );
  const to = Date.now();
  await sleep(2000);
  const records = await readers.close();
  for (const s of reference) s.close();
  const log = await feedLog(stack.primaryUrl, start);
  const light = tally(records, log, start);
  const checked = tally(reference, log, start);
  const delays = deliveryDelays(records, log, from, to);
  const reads = await Promise.all(stack.webUrls.map((u) => metric(u, "offer_book_db_reads_total", { target: "replica" })));
  const primaryReads = await Promise.all(stack.webUrls.map((u) => metric(u, "offer_book_db_reads_total", { target: "primary" })));
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  print(`replica correctness (apply delay 500 ms, 4 takes/s, ${CORRECTNESS_S} s, ${STREAMS} streams × 2 web processes): ${light.events} stream events, ${light.gaps} gaps, ${light.duplicates} duplicates; ${answers} book answers (${notModified} 304), ${older} older than an id the process had streamed — ${verdict(light.events >= 10_000 && light.gaps + light.duplicates + older === 0)} (target ≥ 10,000 events, 0/0/0)`);
  print(`  check, one eventsource-parser stream per web process: ${checked.events} events, ${checked.gaps} gaps, ${checked.duplicates} duplicates; reads by target over the run: replica ${sum(reads)}, primary ${sum(primaryReads)}`);
  print(`two web processes × ${STREAMS} streams: delivery p50 ${ms(percentile(delays, 50))}, p99 ${ms(percentile(delays, 99))}, max ${ms(percentile(delays, 100))} over ${delays.length} deliveries (${log.stamp} to arrival, load average ${load()}) — ${verdict(STREAMS >= 1000 && percentile(delays, 99) < 250)} (target p99 < 250 ms with 1,000 streams each)`);
  await stack.setApplyDelay(0);
}

/** One web process SIGKILLed with streams open on it through nginx: they resume on the other. */
export async function webKilled(stack: ScaleStack, print: Print): Promise<void> {
  const start = await newestFeedId(stack.primaryUrl);
  const readers = await StreamReaders.open(
    Array.from({ length: STREAMS }, () => ({ baseUrl: stack.proxyUrl, path: "/v1/stream", after: start, group: 0 })),
    THREADS,
  );
  const reference = new ResumingStream(() => stack.proxyUrl, "/v1/stream");
  await reference.open(start);
  await sleep(3000);
  stack.webs[0]!.kill("SIGKILL");
  const killedAt = Date.now();
  await sleep(8000);
  const records = await readers.close();
  reference.close();
  const log = await feedLog(stack.primaryUrl, start);
  const light = tally(records, log, start);
  const checked = tally([reference], log, start);
  const resumed = records.filter((r) => r.reconnects > 0).length;
  print(`web process SIGKILLed with ${STREAMS} streams open through nginx: ${resumed} resumed with Last-Event-ID, ${light.gaps} gaps, ${light.duplicates} duplicates over ${light.events} events, ${Math.round((Date.now() - killedAt) / 1000)} s after (check stream: ${checked.gaps}/${checked.duplicates}) — ${verdict(STREAMS >= 1000 && light.gaps + light.duplicates + checked.gaps + checked.duplicates === 0)} (target 0/0 with 1,000 streams)`);
  await stack.startWeb(0);
}
