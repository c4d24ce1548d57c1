/**
 * Resolves after `ms`, or as soon as `signal` aborts (at once if it already
 * has): a wait between retries ends with the work it paces, and the caller
 * checks the signal to tell the two apart. Never rejects.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
