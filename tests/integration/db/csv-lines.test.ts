import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, disconnect, type Database } from "../../../lib/db/client";
import { csvHeader, csvLine, csvLines } from "../../../lib/db/reads/csv";
import { field, objectField } from "../../../lib/db/reads/fields";
import { exportFills } from "../../../lib/db/reads/fills";
import { insertOffer, recordFills } from "../../../lib/db/writes/index";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { fillFixture, offerFixture, signatureOf } from "../../helpers/fixtures";

// A CSV export's lines, rendered by PostgreSQL (csvLine), and its cursor, run
// in a read-only transaction of its own with no statement timeout: the web's
// connections bound every statement (10 s), and that bound spanned the whole
// cursor, cutting a year's export after 10 s.

let database: TestDatabase;
let bounded: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  // The web's kind of connection, with a tight bound.
  bounded = connect(database.url, { max: 2, statementTimeoutMs: 2_000 });
});
afterAll(async () => {
  await disconnect(bounded);
  await database?.drop();
});

async function text(lines: AsyncGenerator<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of lines) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

describe("csvLines", () => {
  it("runs the export's query without the connection's statement timeout, read-only", async () => {
    const body = await text(
      csvLines(bounded.$client, (tx) => tx`select current_setting('statement_timeout') || ',' || current_setting('transaction_read_only') || E'\r\n' as line`, "timeout,read_only\r\n"),
    );
    expect(body).toBe("timeout,read_only\r\n0,on\r\n");
    // The connection goes back to the pool with its own bound.
    const [row] = await bounded.$client`select current_setting('statement_timeout') as timeout`;
    expect(row?.timeout).toBe("2s");
  });

  it("exports every row through several cursor batches, and a client that stops early ends the transaction", async () => {
    const offer = offerFixture("csv-timeout", { originalSize: 10n ** 15n, remainingSize: 10n ** 15n });
    await insertOffer(database.db.$client, offer);
    const fills = Array.from({ length: 2_500 }, (_, i) => fillFixture(`csv-timeout-${i}`, offer.pda, { signature: signatureOf(`csv-timeout-${i}`), slot: BigInt(1_000 + i), fillAmount: 1n }));
    await recordFills(database.db.$client, fills);

    const body = await text(exportFills(bounded, { offerPda: offer.pda }));
    expect(body.split("\r\n").length - 2).toBe(2_500);

    const lines = exportFills(bounded, { offerPda: offer.pda });
    await lines.next(); // the header
    await lines.next(); // the first batch
    await lines.return(undefined);
    const [open] = await database.db.$client`select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`;
    expect(open?.n).toBe(0);
  });
});

describe("csvLine", () => {
  it("renders a row as PostgreSQL gives it: text quoted as RFC 4180 asks, numbers and times as they are, null empty", async () => {
    const fields = {
      signature: field("signature", "'a,\"b\"' || E'\\n' || 'c'"),
      maker: field("address", "'plain'"),
      ixIndex: field("uint", "7"),
      fillAmount: field("amount", "18446744073709551615::numeric"),
      blockTime: field("time", "timestamptz '2026-11-27 12:00:00.5+00'"),
      feeAmount: field("amount", "null::numeric", { nullable: true }),
    };
    const body = await text(csvLines(bounded.$client, (tx) => tx`select ${tx.unsafe(csvLine(fields))}`, csvHeader(fields)));
    expect(body).toBe('signature,maker,ixIndex,fillAmount,blockTime,feeAmount\r\n"a,""b""\nc",plain,7,18446744073709551615,2026-11-27T12:00:00.500Z,\r\n');
  });

  it("has no cell for a nested object", () => {
    expect(() => csvLine({ nested: objectField({}, "null") })).toThrow(/no cell for nested, a field of kind object/);
  });
});
