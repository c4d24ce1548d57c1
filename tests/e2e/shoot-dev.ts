import { mkdirSync } from "node:fs";
import { DESKTOP, PHONE, isolate, launchChromium, watchConsole } from "./browser";

// Development aid: `BASE=http://127.0.0.1:3100 npx tsx tests/e2e/shoot-dev.ts /path ...` saves screenshots to test-results/dev.
const base = process.env.BASE ?? "http://127.0.0.1:3100";
const paths = process.argv.slice(2);
mkdirSync("test-results/dev", { recursive: true });
const browser = await launchChromium();
for (const [name, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
  for (const scheme of (process.env.SCHEMES ?? "dark").split(",") as ("dark" | "light")[]) {
    const context = await browser.newContext({ viewport, colorScheme: scheme });
    await isolate(context, base);
    const page = await context.newPage();
    const errors = watchConsole(page);
    for (const p of paths) {
      await page.goto(base + p, { waitUntil: "networkidle" });
      await page.waitForTimeout(Number(process.env.WAIT ?? 800));
      const file = `test-results/dev/${p.replace(/[^a-z0-9]+/gi, "_").slice(0, 40) || "home"}-${name}-${scheme}.png`;
      await page.screenshot({ path: file, fullPage: process.env.FULL === "1" });
      console.log(file, errors.splice(0));
    }
    await context.close();
  }
}
await browser.close();
