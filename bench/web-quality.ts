import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import type { Browser, Page } from "playwright-core";
import { axeViolations, sidewaysOverflow } from "../tests/e2e/axe";
import { CHROMIUM_PATH, DESKTOP, PHONE, isolate, openPage } from "../tests/e2e/browser";

// The quality half of `npm run bench:web`: per page, at desktop and phone
// widths, axe-core's WCAG 2 A/AA violations (and any sideways overflow) in
// Playwright, and Lighthouse 12's performance, accessibility and best-practice
// scores with cumulative layout shift and total blocking time, in Debian's
// Chromium launched by chrome-launcher. Lighthouse's phone run is its default
// (a mid-range phone, throttled CPU and network); desktop its desktop preset.
// Then the page is left open, idle and following its live stream, for
// IDLE_MS while a PerformanceObserver records its long main-thread tasks.
// Targets: CLS < 0.1, no axe violation, accessibility and best practices >= 95,
// no long task over 200 ms while idle.

export const CLS_BUDGET = 0.1;
export const SCORE_TARGET = 95;
export const IDLE_LONG_TASK_BUDGET = 200;
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 5000);

/** What a page does while it sits open for `ms`: its longest main-thread task (0 if none over 50 ms), its tasks over 50 ms, and its layout shift summed (no input in the window, so every shift counts). */
export const watchIdle = (page: Page, ms: number) =>
  page.evaluate(
    (ms) =>
      new Promise<{ longestTask: number; tasksOver50: number; shift: number }>((resolve) => {
        const result = { longestTask: 0, tasksOver50: 0, shift: 0 };
        const tasks = new PerformanceObserver((list) => {
          for (const e of list.getEntries()) {
            result.longestTask = Math.max(result.longestTask, e.duration);
            result.tasksOver50++;
          }
        });
        const shifts = new PerformanceObserver((list) => {
          for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
            if (!e.hadRecentInput) result.shift += e.value;
          }
        });
        tasks.observe({ type: "longtask" });
        shifts.observe({ type: "layout-shift" });
        setTimeout(() => {
          tasks.disconnect();
          shifts.disconnect();
          resolve(result);
        }, ms);
      }),
    ms,
  );

export interface QualityRow {
  page: string;
  size: "desktop" | "phone";
  axe: string[];
  overflow: number;
  performance: number;
  accessibility: number;
  bestPractices: number;
  cls: number;
  tbt: number;
  /** The longest main-thread task while idle and live, ms. */
  idleLongTask: number;
  /** The live indicator's state after the idle window ("-": the page follows no stream). */
  stream: string;
}

export async function measureQuality(browser: Browser, base: string, pages: [string, string][]): Promise<QualityRow[]> {
  const rows: QualityRow[] = [];
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run"] });
  try {
    for (const [size, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
      const context = await browser.newContext({ viewport, colorScheme: "dark" });
      await isolate(context, base);
      const page = await context.newPage();
      for (const [name, path] of pages) {
        await openPage(page, base + path);
        const axe = (await axeViolations(page)).map((v) => `${v.id} (${v.targets.length})`);
        const overflow = await sidewaysOverflow(page);
        const idleLongTask = (await watchIdle(page, IDLE_MS)).longestTask;
        const stream = await page.evaluate(() => document.querySelector('[data-testid="live-indicator"]')?.getAttribute("data-state") ?? "-");
        const run = await lighthouse(
          base + path,
          { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance", "accessibility", "best-practices"] },
          size === "desktop" ? desktopConfig : undefined,
        );
        const lhr = run!.lhr;
        const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
        rows.push({
          page: name,
          size,
          axe,
          overflow,
          performance: score("performance"),
          accessibility: score("accessibility"),
          bestPractices: score("best-practices"),
          cls: lhr.audits["cumulative-layout-shift"]?.numericValue ?? NaN,
          tbt: lhr.audits["total-blocking-time"]?.numericValue ?? NaN,
          idleLongTask,
          stream,
        });
      }
      await context.close();
    }
  } finally {
    chrome.kill();
  }
  return rows;
}

export const meetsTargets = (r: QualityRow) => r.axe.length === 0 && r.overflow === 0 && r.cls < CLS_BUDGET && r.accessibility >= SCORE_TARGET && r.bestPractices >= SCORE_TARGET && r.idleLongTask <= IDLE_LONG_TASK_BUDGET;

export function qualityTable(rows: QualityRow[]): string {
  const head = ["page".padEnd(16), "width".padEnd(7), "axe".padStart(4), "perf".padStart(5), "a11y".padStart(5), "best".padStart(5), "CLS".padStart(6), "TBT".padStart(8), "idle task".padStart(9), "stream".padEnd(12)].join("  ");
  const lines = rows.map((r) =>
    [
      r.page.padEnd(16),
      r.size.padEnd(7),
      String(r.axe.length).padStart(4),
      String(r.performance).padStart(5),
      String(r.accessibility).padStart(5),
      String(r.bestPractices).padStart(5),
      r.cls.toFixed(3).padStart(6),
      `${r.tbt.toFixed(0)} ms`.padStart(8),
      `${r.idleLongTask.toFixed(0)} ms`.padStart(9),
      r.stream.padEnd(12),
      meetsTargets(r) ? "" : ` below target${r.axe.length ? `: ${r.axe.join(", ")}` : ""}${r.overflow ? `, ${r.overflow} px wider than the viewport` : ""}`,
    ].join("  "),
  );
  return [head, ...lines].join("\n");
}
