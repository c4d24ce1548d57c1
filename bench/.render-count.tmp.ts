import { launchChromium } from "../tests/e2e/browser";
// Temporary (not committed): per React commit, which function components rendered (PerformedWork),
// counted by the host element they draw: table rows (tr), fill cards (li[data-fill-card]), others.
const BASE = process.env.BENCH_WEB_URL ?? "http://localhost:3000";
const path = process.argv[2] ?? "/fills";
const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: Number(process.env.W ?? 1280), height: 900 } });
await page.addInitScript(() => {
  const w = window as unknown as Record<string, unknown>;
  const commits: { tr: number; li: number; other: number }[] = [];
  w.__commits = commits;
  const hostOf = (f: any): any => { let c = f.child; while (c && typeof c.type !== "string") c = c.child; return c; };
  w.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true, renderers: new Map(), inject() { return 1; }, checkDCE() {},
    onCommitFiberRoot(_id: number, root: any) {
      const counts = { tr: 0, li: 0, other: 0 };
      const stack = [root.current];
      while (stack.length) {
        const f = stack.pop();
        if ((f.tag === 0 || f.tag === 15 || f.tag === 11) && f.flags & 1) {
          const h = hostOf(f);
          if (h?.type === "tr" && h.memoizedProps?.["data-fill"]) counts.tr++;
          else if (h?.type === "li" && h.memoizedProps?.["data-fill-card"]) counts.li++;
          else counts.other++;
        }
        if (f.child) stack.push(f.child);
        if (f.sibling) stack.push(f.sibling);
      }
      commits.push(counts);
    },
    onCommitFiberUnmount() {}, onPostCommitFiberRoot() {},
  };
});
await page.goto(BASE + path);
await page.waitForSelector("[data-fill]", { timeout: 60_000 });
await page.evaluate(() => ((window as any).__commits.length = 0));
await page.waitForTimeout(Number(process.env.MS ?? 15_000));
const commits = await page.evaluate(() => (window as any).__commits as { tr: number; li: number; other: number }[]);
const pill = await page.locator("[data-testid=new-rows-pill]").getAttribute("data-count").catch(() => null);
const busy = commits.filter((c) => c.tr + c.li > 0 || c.other > 20);
console.log(path, "commits", commits.length, "pill", pill, "max tr", Math.max(0, ...commits.map((c) => c.tr)), "max li", Math.max(0, ...commits.map((c) => c.li)), "max other", Math.max(0, ...commits.map((c) => c.other)));
console.log(JSON.stringify(busy.slice(0, 15)));
await browser.close();
