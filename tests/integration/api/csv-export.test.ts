import { describe, expect, it } from "vitest";
import type { NewFill, NewOffer } from "../../../lib/db/writes/index";
import { addressOf, fillFixture, offerFixture, signatureOf, USDT } from "../../helpers/fixtures";
import { seededApi } from "../../helpers/seeded-api";

// CSV exports over real PostgreSQL and HTTP: format=csv or Accept: text/csv
// on /v1/fills, /v1/offers and /v1/wallets/:address/trades answer every row
// the filters select, from the cursor on, in the list's order: the same rows,
// field for field, as walking the JSON pages to their end. (The 1 M-row
// export's memory is measured by `npm run bench:csv`, not here.)

const ALICE = addressOf("csv:alice");
const BOB = addressOf("csv:bob");
const OFFERS = 30;
const FILLS = 450;

const offers: NewOffer[] = Array.from({ length: OFFERS }, (_, i) =>
  offerFixture(`csv-${i}`, {
    maker: i % 3 === 0 ? BOB : ALICE,
    ...(i % 2 ? { paymentMint: USDT } : {}),
    side: i % 4 === 0 ? "buy" : "sell",
    // Room for 15 fills of 9e15 each: a remaining size stays a u64.
    originalSize: 10n ** 18n,
    remainingSize: 10n ** 18n,
    createdAt: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000),
  }),
);

const fills: NewFill[] = Array.from({ length: FILLS }, (_, i) =>
  fillFixture(`csv-${i}`, offers[i % OFFERS]!.pda, {
    taker: i % 5 === 0 ? ALICE : addressOf(`csv:taker-${i % 7}`),
    signature: signatureOf(`csv-tx-${Math.floor(i / 3)}`),
    ixIndex: i % 3,
    slot: BigInt(10_000 + Math.floor(i / 3)),
    // Amounts beyond 2^53: exact as decimal strings or not at all.
    fillAmount: 9_007_199_254_740_993n + BigInt(i),
    paymentAmount: 18_446_744_073_709_551_615n - BigInt(i),
    feeAmount: BigInt(i),
    blockTime: new Date(Date.UTC(2026, 0, 2) + i * 60_000),
  }),
);

const { server } = seededApi({ offers, fills });

/** Every JSON page of `path` (which has a query) walked by cursor, 200 rows at a time. */
async function allPages(path: string, key: string): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  do {
    const { status, body }: { status: number; body: any } = await server.json(`${path}&limit=200${cursor ? `&cursor=${cursor}` : ""}`);
    expect(status, path).toBe(200);
    rows.push(...body[key]);
    cursor = body.nextCursor;
  } while (cursor !== null);
  return rows;
}

/** The CSV's rows as objects of strings (none of our values needs quoting), and the response. */
async function csv(path: string, init?: RequestInit): Promise<{ response: Response; header: string[]; rows: Record<string, string>[] }> {
  const response = await server.get(path, init);
  const text = await response.text();
  expect(response.status, `${path}: ${text.slice(0, 200)}`).toBe(200);
  expect(text.endsWith("\r\n")).toBe(true);
  const [head = "", ...lines] = text.slice(0, -2).split("\r\n");
  const header = head.split(",");
  return { response, header, rows: lines.map((line) => Object.fromEntries(line.split(",").map((cell, i) => [header[i]!, cell]))) };
}

/** A JSON row as CSV cells: strings as they are, numbers as digits. */
const asCells = (row: Record<string, unknown>) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v === null ? "" : String(v)]));

describe("CSV exports", () => {
  it.each([
    ["/v1/fills?maker=" + ALICE, "fills"],
    ["/v1/fills?fromTime=" + (Date.UTC(2026, 0, 2, 2) / 1000) + "&toTime=" + (Date.UTC(2026, 0, 2, 5) / 1000), "fills"],
    ["/v1/offers?status=open", "offers"],
    ["/v1/offers?status=open&sort=price&tokenMint=" + offers[0]!.tokenMint + "&paymentMint=" + USDT, "offers"],
    [`/v1/wallets/${ALICE}/trades?role=any`, "trades"],
    [`/v1/wallets/${ALICE}/trades?role=taker`, "trades"],
  ])("%s: the same rows as the JSON pages, field for field", async (path, key) => {
    const json = key === "offers" && path.includes("sort=price") ? (await server.json(`${path}&limit=200`)).body.offers : await allPages(path, key);
    expect(json.length, path).toBeGreaterThan(0);
    const { response, header, rows } = await csv(`${path}&format=csv`);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="[\w.-]+\.csv"$/);
    expect(header).toEqual(Object.keys(json[0]!));
    expect(rows).toEqual(json.map(asCells));
  });

  it("answers Accept: text/csv without format, and JSON when JSON is preferred or format=json", async () => {
    const { rows } = await csv("/v1/fills?taker=" + ALICE, { headers: { accept: "text/csv" } });
    expect(rows).toHaveLength(FILLS / 5);
    const preferJson = await server.get("/v1/fills?taker=" + ALICE, { headers: { accept: "application/json, text/csv;q=0.5" } });
    expect(preferJson.headers.get("content-type")).toMatch(/^application\/json/);
    await preferJson.arrayBuffer();
    const forced = await server.get("/v1/fills?format=json", { headers: { accept: "text/csv" } });
    expect(forced.headers.get("content-type")).toMatch(/^application\/json/);
    await forced.arrayBuffer();
  });

  it("starts after a JSON page's cursor, as the next page would", async () => {
    const first = (await server.json("/v1/fills?limit=100")).body;
    const { rows } = await csv(`/v1/fills?format=csv&cursor=${first.nextCursor}`);
    expect(rows).toHaveLength(FILLS - 100);
    expect(rows.slice(0, 100)).toEqual((await server.json(`/v1/fills?limit=100&cursor=${first.nextCursor}`)).body.fills.map(asCells));
  });

  it("keeps raw amounts exact beyond 2^53, and answers a header alone when nothing matches", async () => {
    const { rows } = await csv(`/v1/fills?format=csv&taker=${ALICE}`);
    expect(rows.at(-1)).toMatchObject({ fillAmount: "9007199254740993", paymentAmount: "18446744073709551615", feeAmount: "0" });
    const empty = await server.get(`/v1/fills?format=csv&maker=${addressOf("csv:nobody")}`);
    expect(await empty.text()).toBe(
      "signature,ixIndex,offerPda,maker,taker,fillAmount,paymentAmount,feeAmount,blockTime,slot,tokenMint,paymentMint,side\r\n",
    );
  });

  it("validates like the JSON lists, and refuses a page size or an offset", async () => {
    const expectError = async (pathAndQuery: string, param: string) => {
      const { status, body } = await server.json(pathAndQuery);
      expect(status, pathAndQuery).toBe(400);
      expect(body, pathAndQuery).toEqual({ error: expect.any(String), code: "invalid_parameter", param });
    };
    await expectError("/v1/fills?format=xml", "format");
    await expectError("/v1/fills?format=csv&limit=10", "limit");
    await expectError("/v1/offers?format=csv&offset=10", "offset");
    await expectError("/v1/fills?format=csv&cursor=bm9wZQ", "cursor");
    await expectError(`/v1/wallets/${BOB}/trades?format=csv&role=owner`, "role");
    await expectError("/v1/fills?format=csv&fromTime=20&toTime=10", "fromTime");
  });
});
