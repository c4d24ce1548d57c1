import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { DEX_PAIR_STATEMENT } from "../../../lib/adapters/dextools";
import { insertOffer, recordFills, type NewFill, type NewOffer } from "../../../lib/db/writes/index";
import { startTokenStandin, type TokenStandin } from "../../../local/tokens/index";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { addressOf, fillFixture, offerFixture, signatureOf, USDC, WSOL } from "../../helpers/fixtures";
import { startWebServer, type WebServer } from "../../helpers/server";

// The DEXTools HTTP adapter over real PostgreSQL and HTTP, every answer
// validated against DEXTools' own OpenAPI file (tests/fixtures/dextools/,
// copied from dextools-io/integration-sdk) as well as our document: a market
// as a pair, a fill as a swap from the taker's side in whole tokens, and the
// adapter's rule that a block is announced only once all its events are
// served (below the scanner's checkpoint slot, and final).

const SPEC = parse(readFileSync(path.resolve(import.meta.dirname, "../../fixtures/dextools/http-adapter-specification.yml"), "utf8"));
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema(SPEC, "dextools");
const SCHEMA_OF: Record<string, string> = {
  "/latest-block": "ResponseOfBlock",
  "/block": "ResponseOfBlock",
  "/asset": "ResponseOfAsset",
  "/pair": "ResponseOfPair",
  "/events": "ResponseOfEvents",
};

let database: TestDatabase;
let server: WebServer;
let provider: TokenStandin;
const sql = () => database.db.$client;

/** GET under /v1/dextools; the body checked against DEXTools' specification for its path (ResponseOfError for a 4xx). */
async function dex(pathAndQuery: string) {
  const answer = await server.json(`/v1/dextools${pathAndQuery}`);
  const route = pathAndQuery.split("?")[0]!;
  const name = answer.status >= 400 ? "ResponseOfError" : SCHEMA_OF[route]!;
  const validate = ajv.getSchema(`dextools#/components/schemas/${name}`)!;
  if (!validate(answer.body)) throw new Error(`${pathAndQuery}: not a ${name} of the DEXTools specification: ${ajv.errorsText(validate.errors)}`);
  return answer;
}

const T0 = 1_780_000_000;
const PROGRAM = addressOf("program:dextools");
const ask = offerFixture("dex-ask", { tokenMint: WSOL, side: "sell", pricePerToken: 185n, priceScale: 3, originalSize: 10n ** 12n, remainingSize: 10n ** 12n, createdSlot: 290n });
const bid = offerFixture("dex-bid", { tokenMint: WSOL, side: "buy", pricePerToken: 18n, priceScale: 2, originalSize: 10n ** 12n, remainingSize: 10n ** 12n, createdSlot: 295n });
const offers: NewOffer[] = [ask, bid];

const at = (slot: number) => ({ slot: BigInt(slot), blockTime: new Date((T0 + slot - 300) * 1000) });
const sigB = signatureOf("dex-tx-b");
const sigC = signatureOf("dex-tx-c");
const fills: NewFill[] = [
  // Slot 301: two transactions, the second with two takes.
  fillFixture("dex-1", ask.pda, { ...at(301), signature: sigB, fillAmount: 2_000_000_000n, paymentAmount: 370_000_000n, feeAmount: 740_000n }),
  fillFixture("dex-2", bid.pda, { ...at(301), signature: sigC, ixIndex: 0, fillAmount: 1_000_000_000n, paymentAmount: 180_000_000n, feeAmount: 360_000n }),
  fillFixture("dex-3", ask.pda, { ...at(301), signature: sigC, ixIndex: 2, fillAmount: 1n, paymentAmount: 0n, feeAmount: 0n }),
  // Slot 303: not yet final when first asked; slot 304: the checkpoint's own slot.
  fillFixture("dex-4", ask.pda, { ...at(303), signature: signatureOf("dex-tx-e"), fillAmount: 1_000_000_000n, paymentAmount: 185_000_000n, feeAmount: 370_000n }),
  fillFixture("dex-5", ask.pda, { ...at(304), signature: signatureOf("dex-tx-f"), fillAmount: 1_000_000_000n, paymentAmount: 185_000_000n, feeAmount: 370_000n }),
];

const TRANSACTIONS: [string, number, boolean][] = [
  [signatureOf("dex-tx-a"), 300, true],
  [sigB, 301, true],
  [sigC, 301, true],
  [signatureOf("dex-tx-d"), 302, true],
  [signatureOf("dex-tx-e"), 303, false],
  [signatureOf("dex-tx-f"), 304, true],
];

beforeAll(async () => {
  database = await createTestDatabase();
  provider = await startTokenStandin();
  for (const offer of offers) await insertOffer(sql(), offer);
  await recordFills(sql(), fills);
  for (const [signature, slot, finalized] of TRANSACTIONS) {
    await sql()`insert into scanned_transactions (signature, slot, block_time, finalized)
      values (${signature}, ${slot}, ${at(slot).blockTime.toISOString()}::timestamptz, ${finalized})`;
  }
  await sql()`insert into scanner_checkpoints (program_id, last_slot) values (${PROGRAM}, 304)`;
  await sql()`insert into chain_identity (genesis_hash, program_id) values ('dextools-test', ${PROGRAM})`;
  server = await startWebServer({ DATABASE_URL: database.url, TOKEN_API_URL: provider.url, TOKEN_API_RPM: "600" });
});

afterAll(async () => {
  await server?.stop();
  await provider?.stop();
  await database?.drop();
});

const block = (slot: number) => ({ blockNumber: slot, blockTimestamp: T0 + slot - 300 });
const PAIR_ID = `${WSOL}:${USDC}`;

describe("the announced block", () => {
  it("is the newest slot below both the checkpoint's and the oldest unfinalized one", async () => {
    expect((await dex("/latest-block")).body).toEqual({ block: block(302) });
    const events = await dex("/events?fromBlock=300&toBlock=400");
    expect(events.body.events.map((e: { block: { blockNumber: number } }) => e.block.blockNumber)).toEqual([301, 301, 301]);
  });

  it("moves on when the slot is finalized, and its events are then served; the checkpoint's own slot stays unannounced", async () => {
    await sql()`update scanned_transactions set finalized = true where slot = 303`;
    expect((await dex("/latest-block")).body).toEqual({ block: block(303) });
    const events = await dex("/events?fromBlock=303&toBlock=304");
    expect(events.body.events).toHaveLength(1);
    expect(events.body.events[0]).toMatchObject({ block: block(303), eventIndex: 0, txnIndex: 0 });
    expect((await dex("/block?number=304")).status).toBe(404);
  });
});

describe("GET /v1/dextools/events", () => {
  it("states each fill as a swap from the taker's side, whole tokens, ranked within its block", async () => {
    const { status, body } = await dex("/events?fromBlock=301&toBlock=301");
    expect(status).toBe(200);
    const [first, second] = [sigB, sigC].sort();
    const expected = [
      { signature: sigB, ix: 0, amounts: { asset0Out: "2.0", asset1In: "370.0" } },
      { signature: sigC, ix: 0, amounts: { asset0In: "1.0", asset1Out: "179.64" } }, // 180 less the 0.36 fee
      { signature: sigC, ix: 2, amounts: { asset0Out: "0.000000001", asset1In: "0.0" } },
    ].sort((a, b) => (a.signature === b.signature ? a.ix - b.ix : a.signature < b.signature ? -1 : 1));
    expect(body.events).toEqual(
      expected.map((e, i) => ({
        block: block(301),
        txnId: e.signature,
        txnIndex: e.signature === first ? 0 : e.signature === second ? 1 : -1,
        eventIndex: i,
        maker: addressOf("taker:default"),
        pairId: PAIR_ID,
        eventType: "swap",
        ...e.amounts,
      })),
    );
  });

  it("refuses a reversed, an unbounded or a malformed range with the adapter's error body", async () => {
    const reversed = await dex("/events?fromBlock=10&toBlock=5");
    expect(reversed.status).toBe(400);
    expect(reversed.body).toMatchObject({ code: "invalid_parameter", param: "fromBlock", message: reversed.body.error });
    expect(reversed.body.issues).toEqual([{ param: "fromBlock", code: "invalid_parameter", message: reversed.body.error }]);
    expect((await dex("/events?fromBlock=0&toBlock=100000")).body).toMatchObject({ param: "toBlock" });
    expect((await dex("/events?fromBlock=x&toBlock=1")).body).toMatchObject({ param: "fromBlock" });
    expect((await dex("/events?fromBlock=1")).body).toMatchObject({ code: "missing_parameter", param: "toBlock" });
  });
});

describe("GET /v1/dextools/block", () => {
  it("finds a block by number, or the newest announced one at or before a timestamp", async () => {
    expect((await dex("/block?number=301")).body).toEqual({ block: block(301) });
    expect((await dex(`/block?timestamp=${T0 + 2}`)).body).toEqual({ block: block(302) });
    expect((await dex(`/block?timestamp=${T0 + 60}`)).body).toEqual({ block: block(303) });
    expect((await dex(`/block?number=300&timestamp=${T0 + 2}`)).body).toEqual({ block: block(300) });
  });

  it("answers 404 where there is no block and 400 without a parameter", async () => {
    expect((await dex("/block?number=299")).status).toBe(404);
    expect((await dex(`/block?timestamp=${T0 - 1}`)).status).toBe(404);
    const none = await dex("/block");
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ code: "missing_parameter", message: "number or timestamp is required" });
  });
});

describe("GET /v1/dextools/pair and /asset", () => {
  it("describes the market as a pair created with its first offer by the program", async () => {
    const { body } = await dex(`/pair?id=${PAIR_ID}`);
    expect(body).toEqual({
      pair: {
        id: PAIR_ID,
        asset0Id: WSOL,
        asset1Id: USDC,
        createdAtBlockNumber: 290,
        createdAtBlockTimestamp: ask.createdAt.getTime() / 1000,
        createdAtTxnId: ask.createdSignature,
        factoryAddress: PROGRAM,
        feeBps: 20,
      },
    });
    expect((await dex(`/pair?id=${USDC}:${WSOL}`)).status).toBe(404);
    expect((await dex(`/pair?id=${WSOL}_${USDC}`)).body).toMatchObject({ code: "invalid_parameter", param: "id" });
  });

  it("names a traded token from the token provider, and knows no other", async () => {
    expect((await dex(`/asset?id=${WSOL}`)).body).toEqual({ asset: { id: WSOL, name: "Wrapped SOL", symbol: "SOL" } });
    expect((await dex(`/asset?id=${USDC}`)).status).toBe(200);
    expect((await dex(`/asset?id=${addressOf("token:never-traded")}`)).status).toBe(404);
    expect((await dex("/asset?id=nope")).body).toMatchObject({ code: "invalid_parameter", param: "id" });
  });
});

describe("the pair's read", () => {
  it("is the head of one range of offers_pair_created_idx, among many offers of the market", async () => {
    await sql()`insert into offers (pda, maker, token_mint, payment_mint, side, nonce, original_size, remaining_size, price_per_token, price_scale,
        min_fill, created_at, expires_at, created_slot, last_slot)
      select 'dex-bulk-' || i, 'dex-bulk-maker', ${WSOL}, ${USDC}, 'sell', i, 10, 10, 1, 0, 1,
        to_timestamp(${T0}) + i * interval '1 second', to_timestamp(${T0}) + interval '30 days', 1000 + i, 1000 + i
      from generate_series(1, 20000) i`;
    await sql()`analyze offers`;
    const plan = (await sql().unsafe(`explain ${DEX_PAIR_STATEMENT}`, [WSOL, USDC])).map((r) => r["QUERY PLAN"]).join("\n");
    expect(plan).toMatch(/Index Scan using offers_pair_created_idx on offers/);
    expect(plan).not.toMatch(/Sort|Seq Scan on offers/);
    expect((await dex(`/pair?id=${PAIR_ID}`)).body.pair.createdAtBlockNumber).toBe(290);
  });
});

describe("the events of a range", () => {
  it("come in the order of their slots, not of the slots' text, across a change in the number of digits", async () => {
    // Fills only (no scanned transactions), so that the blocks announced above stay as they are.
    await recordFills(sql(), [
      fillFixture("dex-100", ask.pda, { ...at(100), signature: signatureOf("dex-tx-100"), fillAmount: 1_000_000_000n, paymentAmount: 185_000_000n, feeAmount: 370_000n }),
      fillFixture("dex-99", ask.pda, { ...at(99), signature: signatureOf("dex-tx-99"), fillAmount: 1_000_000_000n, paymentAmount: 185_000_000n, feeAmount: 370_000n }),
    ]);
    const { body } = await dex("/events?fromBlock=99&toBlock=301");
    expect(body.events.map((e: { block: { blockNumber: number } }) => e.block.blockNumber)).toEqual([99, 100, 301, 301, 301]);
  });
});
