import { codedError } from "./database-unreachable";

/** The code a DeadlineError carries, so callers tell it from the work's own failures. */
export const DEADLINE_EXCEEDED = "DEADLINE_EXCEEDED";

export class DeadlineError extends Error {
  readonly code = DEADLINE_EXCEEDED;
  constructor(
    readonly what: string,
    readonly ms: number,
  ) {
    super(`${what} did not settle within ${ms} ms`);
    this.name = "DeadlineError";
  }
}

/**
 * The work's outcome, or a DeadlineError once `ms` pass without one. The work
 * itself goes on (a promise cannot be stopped); a failure it meets later is
 * dropped (Promise.race handles it), a value it gives later goes to `discard`,
 * which frees what the value holds (a stream's cursor). For a wait whose own
 * timeouts can fail to fire: a query sent on a connection whose server
 * vanished without a reset waits for TCP's retransmissions, minutes, past
 * statement_timeout.
 */
export function withDeadline<T>(work: Promise<T>, ms: number, what: string, discard?: (late: T) => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new DeadlineError(what, ms));
      if (discard) work.then(discard, () => {});
    }, ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

/** By its code, not its class: a bundler may load this module twice. */
export const isDeadlineExceeded = (error: unknown): error is DeadlineError => codedError(error)?.code === DEADLINE_EXCEEDED;
