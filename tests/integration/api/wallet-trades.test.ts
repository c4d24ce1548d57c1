import { describe, expect, it } from "vitest";
import type { NewFill, NewOffer } from "../../../lib/db/writes/index";
import { walletTradesStatement } from "../../../lib/db/reads/wallet-trades";
import { addressOf, fillFixture, offerFixture, signatureOf } from "../../helpers/fixtures";
import { seededApi } from "../../helpers/seeded-api";

// GET /v1/wallets/:address/trades over real PostgreSQL and HTTP: a wallet's
// fills as the offer's maker, as the taker, or either, each with its role,
// newest first and paged by the fill feed's keyset cursor; each role read
// from its own fills index.

const ALICE = addressOf("wallet:alice");
const BOB = addressOf("wallet:bob");
const CAROL = addressOf("wallet:carol");

const offers: NewOffer[] = [
  offerFixture("wt-alice", { maker: ALICE, originalSize: 10n ** 12n, remainingSize: 10n ** 12n }),
  offerFixture("wt-bob", { maker: BOB, side: "buy", originalSize: 10n ** 12n, remainingSize: 10n ** 12n }),
];

/** Alice's offer taken by Bob and Carol and by Alice herself; Bob's taken by Alice and Carol. Two takes share a transaction. */
const takes: [offer: number, taker: string][] = [
  [0, BOB], [0, CAROL], [1, ALICE], [0, ALICE], [1, CAROL], [1, ALICE], [0, BOB], [0, CAROL], [1, ALICE], [0, ALICE],
];
const fills: NewFill[] = takes.map(([offer, taker], i) =>
  fillFixture(`wt-${i}`, offers[offer]!.pda, {
    taker,
    signature: signatureOf(`wt-tx-${Math.floor(i / 2)}`),
    ixIndex: i % 2,
    slot: BigInt(500 + Math.floor(i / 2)),
    fillAmount: BigInt(100 + i),
    paymentAmount: BigInt(250 + i),
    feeAmount: BigInt(i),
    blockTime: new Date(Date.UTC(2026, 5, 2, 0, i)),
  }),
);

const makerOf = (f: NewFill) => offers.find((o) => o.pda === f.offerPda)!.maker;
const newestFirst = (a: NewFill, b: NewFill) =>
  a.slot !== b.slot ? (a.slot > b.slot ? -1 : 1) : a.signature !== b.signature ? (a.signature > b.signature ? -1 : 1) : b.ixIndex - a.ixIndex;

function expected(wallet: string, role: "maker" | "taker" | "any") {
  return fills
    .filter((f) => (role !== "taker" && makerOf(f) === wallet) || (role !== "maker" && f.taker === wallet))
    .sort(newestFirst)
    .map((f) => {
      const maker = makerOf(f) === wallet;
      const taker = f.taker === wallet;
      return { role: maker && taker ? "both" : maker ? "maker" : "taker", signature: f.signature, ixIndex: f.ixIndex, taker: f.taker, maker: makerOf(f) };
    });
}

const shape = (rows: { role: string; signature: string; ixIndex: number; taker: string; maker: string }[]) =>
  rows.map(({ role, signature, ixIndex, taker, maker }) => ({ role, signature, ixIndex, taker, maker }));

const { server, sql } = seededApi({ offers, fills });

describe("GET /v1/wallets/:address/trades", () => {
  it("answers each fill's role and the Fill's fields, newest first, exact strings", async () => {
    const { status, body } = await server.json(`/v1/wallets/${ALICE}/trades`);
    expect(status).toBe(200);
    expect(shape(body.trades)).toEqual(expected(ALICE, "any"));
    const first = fills.find((f) => f.signature === body.trades[0].signature && f.ixIndex === body.trades[0].ixIndex)!;
    expect(body.trades[0]).toEqual({
      role: body.trades[0].role,
      signature: first.signature,
      ixIndex: first.ixIndex,
      offerPda: first.offerPda,
      maker: makerOf(first),
      taker: first.taker,
      fillAmount: first.fillAmount.toString(),
      paymentAmount: first.paymentAmount.toString(),
      feeAmount: first.feeAmount.toString(),
      blockTime: first.blockTime.toISOString(),
      slot: first.slot.toString(),
      tokenMint: offers[0]!.tokenMint,
      paymentMint: offers[0]!.paymentMint,
      side: offers.find((o) => o.pda === first.offerPda)!.side,
    });
    expect(body).toMatchObject({ limit: 50, offset: 0, nextCursor: null });
  });

  it.each(["maker", "taker", "any"] as const)("role=%s keeps the wallet's fills in that role; a fill it made and took is `both`, once", async (role) => {
    for (const wallet of [ALICE, BOB, CAROL]) {
      const { body } = await server.json(`/v1/wallets/${wallet}/trades?role=${role}`);
      expect(shape(body.trades), `${wallet} ${role}`).toEqual(expected(wallet, role));
    }
    if (role !== "taker") expect(expected(ALICE, role).filter((t) => t.role === "both")).toHaveLength(2);
  });

  it("pages by cursor and by offset through the same rows", async () => {
    const all = expected(ALICE, "any");
    const seen: unknown[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `&cursor=${cursor}` : "";
      const { body } = await server.json(`/v1/wallets/${ALICE}/trades?limit=2${query}`);
      seen.push(...shape(body.trades));
      cursor = body.nextCursor;
      pages += 1;
    } while (cursor !== null && pages < 20);
    expect(seen).toEqual(all);
    expect(shape((await server.json(`/v1/wallets/${ALICE}/trades?limit=2&offset=3`)).body.trades)).toEqual(all.slice(3, 5));
  });

  it("answers an empty page for a wallet without fills", async () => {
    expect((await server.json(`/v1/wallets/${addressOf("wallet:nobody")}/trades`)).body).toEqual({ trades: [], limit: 50, offset: 0, nextCursor: null });
  });

  it("validates like the other endpoints", async () => {
    const expectError = async (pathAndQuery: string, param: string) => {
      const { status, body } = await server.json(pathAndQuery);
      expect(status, pathAndQuery).toBe(400);
      expect(body, pathAndQuery).toEqual({ error: expect.any(String), code: "invalid_parameter", param });
    };
    await expectError(`/v1/wallets/nope/trades`, "address");
    await expectError(`/v1/wallets/${ALICE}/trades?role=owner`, "role");
    await expectError(`/v1/wallets/${ALICE}/trades?limit=0`, "limit");
    await expectError(`/v1/wallets/${ALICE}/trades?cursor=bm9wZQ`, "cursor");
    const first = (await server.json(`/v1/wallets/${ALICE}/trades?limit=1`)).body.nextCursor;
    await expectError(`/v1/wallets/${ALICE}/trades?cursor=${first}&offset=1`, "offset");
  });
});

describe("the trades' plan", () => {
  it("reads each role as a range of its fills index, among many other wallets' fills", async () => {
    await sql()`insert into fills (signature, ix_index, offer_pda, maker, taker, token_mint, payment_mint, side, fill_amount,
        payment_amount, fee_amount, block_time, slot)
      select 'bulk-' || i, 0, 'bulk-offer', 'maker-' || (i % 500), 'taker-' || (i % 700), 'bulk-token', 'bulk-payment', 'sell',
        1, 1, 0, timestamptz '2026-06-01' + i * interval '1 second', 10000 + i
      from generate_series(1, 50000) i`;
    await sql()`analyze fills`;
    const plan = async (role: "maker" | "taker" | "any", cursor: boolean) => {
      const params = [ALICE, 50, 50, 0, ...(cursor ? ["999999", "x", 0] : [])];
      return (await sql().unsafe(`explain ${walletTradesStatement(role, cursor)}`, params)).map((r) => r["QUERY PLAN"]).join("\n");
    };
    for (const cursor of [false, true]) {
      expect(await plan("maker", cursor)).toMatch(/Index Scan using fills_maker_idx on fills/);
      expect(await plan("taker", cursor)).toMatch(/Index Scan using fills_taker_idx on fills/);
      const any = await plan("any", cursor);
      expect(any).toMatch(/fills_maker_idx/);
      expect(any).toMatch(/fills_taker_idx/);
      for (const role of ["maker", "taker", "any"] as const) expect(await plan(role, cursor)).not.toMatch(/Seq Scan on fills/);
    }
  });
});
