import type postgres from "postgres";
import { describe, expect, it } from "vitest";
import { ReadRouter } from "../../lib/db/read-routing";

// The read router over stand-in clients: where each statement runs, by the
// feed watermark, the lag guard and failures (the engines: tests/integration/scale).

interface Fake {
  sql: postgres.Sql;
  ran: string[];
}

/** A client that answers the router's position poll with `position()` and records other statements. */
function fake(position: () => { newest: number; lag: number }, fail?: () => Error | undefined): Fake {
  const ran: string[] = [];
  const run = (text: string) => {
    if (text.includes("feed_events")) return Promise.resolve([{ newest: String(position().newest), lag_ms: position().lag }]);
    ran.push(text);
    const error = fail?.();
    return error ? Promise.reject(error) : Promise.resolve([{ ok: 1 }]);
  };
  const sql = Object.assign((strings: TemplateStringsArray) => ({ strings, then: (a: never, b: never) => run(strings.join("?")).then(a, b) }), {
    unsafe: (text: string) => Object.assign(run(text), { cancel: () => {} }),
  });
  return { sql: sql as unknown as postgres.Sql, ran };
}

const coded = (code: string) => Object.assign(new Error(code), { code });

/** Resolves once the router's view of its replica passes `seen` (polled every 10 ms): a condition, not a guess at the poll's time. */
async function until(router: ReadRouter, seen: (position: ReturnType<ReadRouter["positions"]>[number]) => boolean): Promise<void> {
  while (!seen(router.positions()[0]!)) await new Promise((r) => setTimeout(r, 5));
}

/** A router over one replica that has answered its first poll. */
async function routerWith(replica: Fake, primary: Fake, watermark: { id: bigint }) {
  const router = new ReadRouter({ primary: primary.sql, replicas: [{ name: "r", sql: replica.sql }], maxLagMs: 1000, pollMs: 10, watermark: () => watermark.id });
  router.start();
  await until(router, (p) => p.up);
  return router;
}

describe("ReadRouter", () => {
  it("reads the replica only at or past the watermark", async () => {
    const state = { newest: 10, lag: 0 };
    const replica = fake(() => state);
    const primary = fake(() => ({ newest: 99, lag: 0 }));
    const mark = { id: 10n };
    const router = await routerWith(replica, primary, mark);
    const sql = router.client();
    await sql`select a`;
    mark.id = 11n;
    await sql`select b`;
    expect(replica.ran).toEqual(["select a"]);
    expect(primary.ran).toEqual(["select b"]);
    router.stop();
  });

  it("waits for the replica to reach the watermark when asked, then reads it", async () => {
    const state = { newest: 5, lag: 0 };
    const replica = fake(() => state);
    const primary = fake(() => state);
    const router = await routerWith(replica, primary, { id: 6n });
    const reading = router.client({ waitMs: 5000 })`select c`;
    setTimeout(() => (state.newest = 6), 50);
    await reading;
    expect(replica.ran).toEqual(["select c"]);
    router.stop();
  });

  it("holds reads on the primary while the replica lags past the bound", async () => {
    const state = { newest: 10, lag: 5000 };
    const replica = fake(() => state);
    const primary = fake(() => state);
    const router = await routerWith(replica, primary, { id: 1n });
    await router.client()`select d`;
    state.lag = 0;
    await until(router, (p) => !p.lagging);
    await router.client()`select e`;
    expect(primary.ran).toEqual(["select d"]);
    expect(replica.ran).toEqual(["select e"]);
    router.stop();
  });

  it("runs a read again once on the primary after a recovery conflict or a lost replica", async () => {
    let error: Error | undefined = coded("40001");
    const replica = fake(() => ({ newest: 10, lag: 0 }), () => error);
    const primary = fake(() => ({ newest: 10, lag: 0 }));
    const router = await routerWith(replica, primary, { id: 1n });
    await router.client()`select f`;
    error = coded("ECONNREFUSED");
    await router.client()`select g`;
    expect(replica.ran).toEqual(["select f", "select g"]);
    expect(primary.ran).toEqual(["select f", "select g"]);
    error = coded("42P01");
    // Out after the refused connection, back once a poll answers.
    await until(router, (p) => p.up);
    await expect(router.client()`select h`).rejects.toThrow("42P01");
    router.stop();
  });
});
