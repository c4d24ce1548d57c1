import { Connection, Keypair } from "@solana/web3.js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalCluster, startLocalCluster } from "../../../local/cluster/index";
import { createAta, JUP, makeSellOffer, sendAndConfirm, takeInstruction, tokenAirdrop, USDC, versioned, airdrop } from "../cluster/wallet-helpers";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { startWorker, waitFor, type WorkerProcess } from "../../helpers/worker";

// A wallet's take that fails on chain (sent with skipPreflight) lands as a
// failed transaction: the worker records that it saw it and indexes nothing
// from it, while the wallet's successful take beside it becomes a fill.

let cluster: LocalCluster;
let database: TestDatabase;
let worker: WorkerProcess | undefined;
let sql: postgres.Sql;

beforeAll(async () => {
  cluster = await startLocalCluster({ seed: "wallet-failed-take", history: 30 });
  database = await createTestDatabase();
  sql = postgres(database.url, { max: 1, onnotice: () => {} });
});

afterAll(async () => {
  worker?.kill("SIGKILL");
  await sql?.end();
  await database?.drop();
  await cluster?.stop();
});

describe("the worker and a wallet's failed take", () => {
  it("indexes no offer change and no fill from a take that landed failed, and the fill of one that succeeded", async () => {
    const connection = new Connection(cluster.url, "confirmed");
    const maker = Keypair.generate();
    const taker = Keypair.generate();
    await airdrop(connection, maker.publicKey, 10);
    await airdrop(connection, taker.publicKey, 5);
    await tokenAirdrop(cluster, maker.publicKey, JUP, 1_000_000_000n);
    await tokenAirdrop(cluster, taker.publicKey, USDC, 1_000_000_000n);
    const made = await makeSellOffer(connection, cluster, maker, { paymentMint: USDC, size: 100_000_000n, pricePerToken: 5n, priceScale: 1, minFill: 10_000_000n, nonce: 3n });

    const belowMinimum = await versioned(connection, taker, [createAta(taker.publicKey, taker.publicKey, JUP), takeInstruction(cluster, made, taker.publicKey, 5_000_000n)]);
    const failed = await connection.sendRawTransaction(belowMinimum.serialize(), { skipPreflight: true });
    const succeeded = await sendAndConfirm(connection, taker, [createAta(taker.publicKey, taker.publicKey, JUP), takeInstruction(cluster, made, taker.publicKey, 20_000_000n)]);
    expect(cluster.ledger.bySignatureAvailable(failed)?.result.err).not.toBeNull();

    worker = startWorker({ DATABASE_URL: database.url, ...cluster.env });
    const scanned = async () => (await sql<{ signature: string; failed: boolean }[]>`select signature, failed from scanned_transactions where signature in (${failed}, ${succeeded})`);
    await waitFor(async () => (await scanned()).length === 2, 60_000, () => `worker did not scan both takes:\n${worker?.output().slice(-3000)}`);

    const rows = new Map((await scanned()).map((r) => [r.signature, r.failed]));
    expect(rows.get(failed)).toBe(true);
    expect(rows.get(succeeded)).toBe(false);
    const fills = await sql<{ signature: string; fill_amount: string }[]>`select signature, fill_amount::text from fills where offer_pda = ${made.offer.toBase58()}`;
    expect(fills).toEqual([{ signature: succeeded, fill_amount: "20000000" }]);
    const [offer] = await sql<{ remaining_size: string }[]>`select remaining_size::text from offers where pda = ${made.offer.toBase58()}`;
    expect(offer?.remaining_size).toBe("80000000");
  }, 120_000);
});
