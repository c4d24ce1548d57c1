import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

// axe-core (WCAG 2 A and AA rules) run inside a page. Injected through the
// debugging protocol (page.evaluate), so the page's CSP does not stop it.

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  /** The first few offending elements' selectors. */
  targets: string[];
}

export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }> }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] }, resultTypes: ["violations"] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) }));
  });
}

/** How many CSS pixels the document is wider than the viewport (0: nothing scrolls sideways). */
export async function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth));
}

/** The outermost elements reaching past the viewport's right edge (outside any sideways scroller), to name in a failure. */
export async function overflowingElements(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const walk = (el: Element) => {
      const scroller = getComputedStyle(el).overflowX !== "visible";
      // Inside a sideways scroller that itself fits, content may be as wide as it likes.
      if (scroller && el.getBoundingClientRect().right <= window.innerWidth + 0.5) return;
      if (el.getBoundingClientRect().right > window.innerWidth + 0.5) {
        const name = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}.${[...el.classList].slice(0, 4).join(".")} (${Math.round(el.getBoundingClientRect().right)} px)`;
        const deeper = [...el.children].filter((c) => c.getBoundingClientRect().right > window.innerWidth + 0.5);
        if (deeper.length === 0 || scroller) return void out.push(name);
        deeper.forEach(walk);
        return;
      }
      [...el.children].forEach(walk);
    };
    walk(document.body);
    return out.slice(0, 8);
  });
}
