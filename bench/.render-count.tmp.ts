import { launchChromium } from "../tests/e2e/browser";
// Temporary (not committed): per React commit, which function components rendered (PerformedWork),
// counted by the host element they draw: table rows (tr), fill cards (li[data-fill-card]), others.
const BASE = process.env.BENCH_WEB_URL ?? "http://localhost:3000";
const path = process.argv[2] ?? "/fills";
const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: Number(process.env.W ?? 1280), height: 900 } });
await page.addInitScript(`
  const commits = [];
  const lastProps = new WeakMap();
  window.__commits = commits;
  const hostOf = (f) => { let c = f.child; while (c && typeof c.type !== "string") c = c.child; return c; };
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true, renderers: new Map(), inject() { window.__injected = (window.__injected || 0) + 1; return 1; }, checkDCE() {},
    onCommitFiberRoot(_id, root) {
      const counts = { tr: 0, li: 0, other: 0 };
      const stack = [root.current];
      while (stack.length) {
        const f = stack.pop();
        if (f.tag === 0 || f.tag === 15) {
          const h = hostOf(f);
          if (h && h.stateNode && (h.type === "tr" && h.memoizedProps && h.memoizedProps["data-fill"] || h.type === "li" && h.memoizedProps && h.memoizedProps["data-fill-card"]) && h.child !== f) {
            const node = h.stateNode;
            const old = lastProps.get(node);
            if (old && old !== f.memoizedProps && !window.__diff) window.__diff = [JSON.stringify(old.row ?? old.f), JSON.stringify(f.memoizedProps.row ?? f.memoizedProps.f)];
            if (old !== f.memoizedProps) { lastProps.set(node, f.memoizedProps); if (h.type === "tr") counts.tr++; else counts.li++; }
          }
        }
        if (f.child) stack.push(f.child);
        if (f.sibling) stack.push(f.sibling);
      }
      commits.push(counts);
    },
    onCommitFiberUnmount() {}, onPostCommitFiberRoot() {},
  };
`);
await page.goto(BASE + path);
await page.waitForSelector("[data-fill]", { timeout: 60_000 });
await page.evaluate(() => ((window as any).__commits.length = 0));
await page.waitForTimeout(Number(process.env.MS ?? 15_000));
const commits = await page.evaluate(() => (window as any).__commits as { tr: number; li: number; other: number }[]);
console.log("injected", await page.evaluate(() => (window as any).__injected));
console.log("diff", await page.evaluate(() => (window as any).__diff));
const pill = await page.locator("[data-testid=new-rows-pill]").getAttribute("data-count").catch(() => null);
const busy = commits.filter((c) => c.tr + c.li > 0 || c.other > 20);
console.log(path, "commits", commits.length, "pill", pill, "max tr", Math.max(0, ...commits.map((c) => c.tr)), "max li", Math.max(0, ...commits.map((c) => c.li)), "max other", Math.max(0, ...commits.map((c) => c.other)));
console.log(JSON.stringify(busy.slice(0, 15)));
await browser.close();
