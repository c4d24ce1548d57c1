import { expect } from "vitest";
import type { LocalCluster } from "../../../local/cluster/index";
import type { WebServer } from "../../helpers/server";

// What the API must show for a ledger, computed from the cluster's own record
// of what its program executed, with this file's own arithmetic: nothing here
// comes from the worker's code.

const FEE_BPS = 20n;
const FEE_DENOMINATOR = 10_000n;
const iso = (unixSeconds: number | bigint) => new Date(Number(unixSeconds) * 1000).toISOString();

async function all(server: Pick<WebServer, "json">, path: string, key: "offers" | "fills"): Promise<any[]> {
  const rows: any[] = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes("?") ? "&" : "?";
    const page: { status: number; body: any } = await server.json(`${path}${sep}limit=200${cursor ? `&cursor=${cursor}` : ""}`);
    expect(page.status, path).toBe(200);
    rows.push(...page.body[key]);
    cursor = page.body.nextCursor;
  } while (cursor);
  return rows;
}

function status(state: string, expiresAt: bigint, nowSeconds: number): string {
  if (state === "active") return Number(expiresAt) > nowSeconds ? "open" : "expired";
  return state;
}

/**
 * The span of wall-clock seconds an answer may have been computed at: an
 * active offer whose expiry falls inside it (with a second's margin for
 * clocks read apart) may show as open or as expired, so its status is not
 * compared. Measured around each request, since a comparison under load can
 * take longer than any fixed tolerance.
 */
interface AnswerSpan {
  from: number;
  to: number;
}

async function during<T>(fetch: () => Promise<T>): Promise<{ answer: T; span: AnswerSpan }> {
  const from = Date.now() / 1000 - 1;
  const answer = await fetch();
  return { answer, span: { from, to: Date.now() / 1000 + 1 } };
}

const lapsesWithin = (account: { state: string; expiresAt: bigint }, span: AnswerSpan) =>
  account.state === "active" && Number(account.expiresAt) > span.from && Number(account.expiresAt) <= span.to;

/** Compares every offer, every fill, every maker's stats and the protocol stats. */
export async function expectIndexMatchesLedger(server: Pick<WebServer, "json">, cluster: LocalCluster): Promise<{ offers: number; fills: number }> {
  const expected = cluster.expectedState();

  const offers = new Map<string, any>();
  const { span: listed } = await during(async () => {
    for (const s of ["open", "filled", "expired", "cancelled"]) {
      for (const o of await all(server, `/v1/offers?status=${s}`, "offers")) offers.set(o.pda, o);
    }
  });
  const now = listed.to;
  expect(offers.size).toBe(expected.offers.size);
  for (const [pda, e] of expected.offers) {
    const a = e.account;
    const row = offers.get(pda);
    expect(row, `offer ${pda}`).toBeDefined();
    const near = lapsesWithin(a, listed); // lapsed while the pages were read
    expect(row, `offer ${pda}`).toMatchObject({
      maker: a.maker,
      tokenMint: a.tokenMint,
      paymentMint: a.paymentMint,
      side: a.side,
      nonce: a.nonce.toString(),
      originalSize: a.originalSize.toString(),
      remainingSize: a.remainingSize.toString(),
      pricePerToken: a.pricePerToken.toString(),
      priceScale: a.priceScale,
      minFill: a.minFill.toString(),
      createdAt: iso(a.createdAt),
      expiresAt: iso(a.expiresAt),
      ...(near ? {} : { status: status(a.state, a.expiresAt, now) }),
    });
    // lastSlot: at least the offer's last change; later account reads (even one
    // on a fork the cluster then dropped) may raise it, never past the tip.
    expect(BigInt(row.lastSlot) >= BigInt(e.lastSlot), `lastSlot of ${pda} (${row.lastSlot} < ${e.lastSlot})`).toBe(true);
    expect(BigInt(row.lastSlot) <= BigInt(cluster.ledger.tip.slot), `lastSlot of ${pda} past the tip`).toBe(true);
  }

  const fills = await all(server, "/v1/fills", "fills");
  expect(fills.length).toBe(expected.fills.length);
  const byId = new Map(fills.map((f) => [`${f.signature}/${f.ixIndex}`, f]));
  const fees = new Map<string, bigint>();
  const volume = new Map<string, bigint>();
  const sold = new Map<string, Map<string, bigint>>();
  const bought = new Map<string, Map<string, bigint>>();
  const add = (m: Map<string, bigint>, k: string, v: bigint) => m.set(k, (m.get(k) ?? 0n) + v);
  for (const f of expected.fills) {
    const offer = expected.offers.get(f.offer)!.account;
    const payment = (f.fillAmount * offer.pricePerToken) / 10n ** BigInt(offer.priceScale);
    const fee = (payment * FEE_BPS + FEE_DENOMINATOR - 1n) / FEE_DENOMINATOR;
    expect(byId.get(`${f.signature}/${f.executionIndex}`), `fill ${f.signature}/${f.executionIndex}`).toEqual({
      signature: f.signature,
      ixIndex: f.executionIndex,
      offerPda: f.offer,
      maker: f.maker,
      taker: f.taker,
      fillAmount: f.fillAmount.toString(),
      paymentAmount: payment.toString(),
      feeAmount: fee.toString(),
      blockTime: iso(f.blockTime),
      slot: String(f.slot),
      tokenMint: f.tokenMint,
      paymentMint: f.paymentMint,
      side: f.side,
    });
    add(fees, f.paymentMint, fee);
    add(volume, f.paymentMint, payment);
    const side = f.side === "sell" ? sold : bought;
    if (!side.has(f.maker)) side.set(f.maker, new Map());
    add(side.get(f.maker)!, f.tokenMint, f.fillAmount);
  }

  const counts = (rows: { account: { state: string; expiresAt: bigint } }[], at: number) => {
    const c = { totalOffers: rows.length, openOffers: 0, filledOffers: 0, expiredOffers: 0, cancelledOffers: 0 };
    for (const r of rows) c[`${status(r.account.state, r.account.expiresAt, at)}Offers` as keyof typeof c]++;
    return c;
  };
  const asStrings = (m: Map<string, bigint> | undefined) => Object.fromEntries([...(m ?? new Map())].map(([k, v]) => [k, v.toString()]));
  // Counts by status, unless an offer among them lapsed while the answer was made.
  const countsAt = (rows: { account: { state: string; expiresAt: bigint } }[], span: AnswerSpan) =>
    rows.some((r) => lapsesWithin(r.account, span)) ? { totalOffers: rows.length } : counts(rows, span.to);

  const { answer: protocol, span: statsSpan } = await during(async () => (await server.json("/v1/stats")).body);
  expect(protocol).toMatchObject({
    ...countsAt([...expected.offers.values()], statsSpan),
    totalFills: expected.fills.length,
    feesByMint: asStrings(fees),
    volumeByMint: asStrings(volume),
  });

  const makers = new Set([...expected.offers.values()].map((e) => e.account.maker));
  for (const maker of makers) {
    const own = [...expected.offers.values()].filter((e) => e.account.maker === maker);
    const { answer: body, span } = await during(async () => (await server.json(`/v1/makers/${maker}/stats`)).body);
    expect(body, `stats of ${maker}`).toMatchObject({
      maker,
      ...countsAt(own, span),
      totalSold: asStrings(sold.get(maker)),
      totalBought: asStrings(bought.get(maker)),
    });
  }
  return { offers: expected.offers.size, fills: expected.fills.length };
}
