import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, disconnect, type Database } from "../../../lib/db/client";
import { csvLines } from "../../../lib/db/reads/csv";
import { exportFills } from "../../../lib/db/reads/fills";
import { insertOffer, recordFills } from "../../../lib/db/writes/index";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { fillFixture, offerFixture, signatureOf } from "../../helpers/fixtures";

// A CSV export's cursor runs in a read-only transaction of its own with no
// statement timeout: the web's connections bound every statement (10 s), and
// that bound spanned the whole cursor, cutting a year's export after 10 s.

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

async function text(lines: AsyncGenerator<string>): Promise<string> {
  let out = "";
  for await (const chunk of lines) out += chunk;
  return out;
}

describe("csvLines", () => {
  it("runs the export's query without the connection's statement timeout, read-only", async () => {
    const body = await text(
      csvLines(bounded.$client, (tx) => tx`select current_setting('statement_timeout') as timeout, current_setting('transaction_read_only') as read_only`, ["timeout", "read_only"]),
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
