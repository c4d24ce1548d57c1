import { existsSync } from "node:fs";
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from "playwright-core";

// Debian's Chromium, driven headless by playwright-core (no browser download).

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const CHROMIUM_APT = "apt-get update && apt-get install -y chromium";

export const DESKTOP = { width: 1440, height: 900 };
export const PHONE = { width: 390, height: 844 };

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}. Install Debian's package (${CHROMIUM_APT}) or set CHROMIUM_PATH.`);
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"],
  });
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * The machine is offline, as a newcomer's laptop behind a firewall may be:
 * every request leaving this machine is refused and recorded. Loopback stays
 * open (the app, and the token stand-in serving its own icons), so an icon
 * that points elsewhere shows up here rather than being stood in for.
 */
export async function isolate(context: BrowserContext, baseUrl: string): Promise<string[]> {
  const external: string[] = [];
  const origin = new URL(baseUrl).origin;
  await context.route(
    (url) => url.origin !== origin && (url.protocol === "http:" || url.protocol === "https:") && !LOOPBACK.has(url.hostname),
    async (route) => {
      external.push(route.request().url());
      return route.abort();
    },
  );
  return external;
}

/** Requests that failed (refused, unreachable, timed out) or were answered 4xx/5xx, as they happen. */
export function watchRequests(page: Page): string[] {
  const failed: string[] = [];
  page.on("requestfailed", (r) => {
    const why = r.failure()?.errorText ?? "failed";
    // Cancelled by the page itself: a link prefetch cut short by navigating on. Refusals and unreachable hosts are not this.
    if (why === "net::ERR_ABORTED") return;
    failed.push(`${r.method()} ${r.url()}: ${why}`);
  });
  page.on("response", (r) => {
    if (r.status() >= 400) failed.push(`${r.request().method()} ${r.url()}: HTTP ${r.status()}`);
  });
  return failed;
}

/** Console errors and uncaught exceptions of a page, collected as they happen. */
export function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`${m.text()} @ ${m.location().url}`);
  });
  page.on("pageerror", (e) => errors.push(`uncaught: ${e.message}`));
  return errors;
}

/**
 * Opens a page and waits until it shows itself: the load event, its main
 * landmark, and (on a page that follows the live stream) the stream out of
 * "connecting". Not "networkidle": a live page holds its stream open, so it
 * never goes network-idle.
 */
export async function openPage(page: Page, url: string) {
  const response = await page.goto(url, { waitUntil: "load" });
  await page.locator("main").first().waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid="live-indicator"]')?.getAttribute("data-state") !== "connecting");
  return response;
}

/**
 * A live row on screen as a reader gets it: rows arriving while their list is
 * on screen wait behind the "N new" pill (components/live/held-rows.tsx), so
 * the pill is clicked whenever it shows, until the row is in the list.
 */
export async function showLiveRow(page: Page, selector: string, timeout = 60_000): Promise<Locator> {
  const row = page.locator(selector).first();
  const pill = page.getByTestId("new-rows-pill").first();
  const deadline = Date.now() + timeout;
  while (!(await row.count())) {
    if (Date.now() > deadline) throw new Error(`${selector} not shown in ${timeout} ms`);
    // The pill may go before the click lands (its list scrolled below the fold): the loop looks again.
    if (await pill.isVisible()) await pill.click({ timeout: 5_000 }).catch(() => undefined);
    else await Promise.race([row.waitFor({ timeout: 1_000 }), pill.waitFor({ timeout: 1_000 })]).catch(() => undefined);
  }
  return row;
}
