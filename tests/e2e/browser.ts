import { existsSync } from "node:fs";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

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

const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#8b85ff"/><stop offset="1" stop-color="#2dd4a0"/></linearGradient></defs><circle cx="16" cy="16" r="16" fill="url(#g)"/></svg>`;

/**
 * The machine is offline: token icons hosted elsewhere (GitHub, the
 * provider's CDN) are answered with a plain gradient icon, as the real host would
 * answer with the icon, so a missing network is not mistaken for a UI error.
 * Anything else leaving localhost is refused, and recorded.
 */
export async function isolate(context: BrowserContext, baseUrl: string): Promise<string[]> {
  const external: string[] = [];
  const origin = new URL(baseUrl).origin;
  await context.route(
    (url) => url.origin !== origin && !url.protocol.startsWith("data") && !url.protocol.startsWith("blob"),
    async (route) => {
      const request = route.request();
      if (request.resourceType() === "image") return route.fulfill({ status: 200, contentType: "image/svg+xml", body: ICON });
      external.push(request.url());
      return route.abort();
    },
  );
  return external;
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
