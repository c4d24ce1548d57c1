/** Thrown by `withDeadline` when the promise did not settle in time. */
export class DeadlineExceeded extends Error {
  override name = "DeadlineExceeded";
}

/** The promise's outcome if it settles within `ms`; else a DeadlineExceeded (the promise keeps running). */
export function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineExceeded(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
