import { sleep } from "../../lib/resilience";

export interface UntilOptions {
  /** How long the condition has to come true (60 s: generous, since a loaded CI machine is slow, not wrong). */
  withinMs?: number;
  /** How often to ask. */
  everyMs?: number;
  /** Ask again when the probe throws (a server still starting or restarting), and report its last error. */
  retryErrors?: boolean;
  /** What to add to the failure, a process's output say: its last 4,000 characters, where a failure's cause is. */
  detail?: () => string;
}

/**
 * Waits on a condition, never a fixed sleep: asks `probe` until it gives a
 * value (anything but undefined or false) and resolves to that value; past
 * the deadline it fails, naming `what`.
 */
export async function until<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  { withinMs = 60_000, everyMs = 50, retryErrors = false, detail }: UntilOptions = {},
): Promise<T> {
  const deadline = Date.now() + withinMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      if (!retryErrors) throw error;
      lastError = error;
    }
    if (Date.now() > deadline) {
      const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : "";
      throw new Error(`timed out after ${withinMs} ms waiting for ${what}${cause}${detail ? `:\n${detail().slice(-4000)}` : ""}`);
    }
    await sleep(everyMs);
  }
}
