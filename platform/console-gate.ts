import { format } from "node:util";
import { throttledReport } from "../lib/resilience";
import type { Logger } from "./log";

/**
 * What a framework writes to the console, as this process's log lines: one
 * line each, at most one per kind of message per interval, with the count
 * held back. Next.js prints some refusals of a client's request with a stack
 * (a made-up `Next-Action` header: "Failed to find Server Action", three
 * lines a request), so without this any client could flood the log.
 */

/** Kinds tracked apart; past this many, the rest share one gate. */
const MAX_KINDS = 200;

/**
 * The kind of a message: its first line with what varies per request masked
 * (quoted text, numbers and hex runs), so one cause with different ids,
 * paths or values is one kind.
 */
export function messageKind(firstLine: string): string {
  return firstLine
    .replace(/"[^"]*"|'[^']*'|`[^`]*`/g, "“…”")
    .replace(/\b(?:0x)?[0-9a-f]*\d[0-9a-f]*\b/gi, "#")
    .slice(0, 200);
}

/** The first non-empty line of what console.error(...args) would print. */
export function firstLineOf(args: unknown[]): string {
  const text = format(...args);
  return (text.split("\n").find((line) => line.trim() !== "") ?? "").trim().slice(0, 500);
}

export function gateConsole(logger: Pick<Logger, "error" | "warn">, intervalMs = 60_000, now: () => number = Date.now): void {
  for (const level of ["error", "warn"] as const) {
    const kinds = new Set<string>();
    const report = throttledReport<string>(intervalMs, (line, _kind, suppressed) => logger[level]({ source: "console", suppressed }, String(line)), now);
    console[level] = (...args: unknown[]) => {
      const line = firstLineOf(args);
      let kind = messageKind(line);
      if (!kinds.has(kind)) {
        if (kinds.size >= MAX_KINDS) kind = "(other)";
        else kinds.add(kind);
      }
      report(line, kind);
    };
  }
}
