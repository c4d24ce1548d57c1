import bs58 from "bs58";
import { createCloseAccountInstruction, createSyncNativeInstruction } from "@solana/spl-token";
import { ComputeBudgetProgram, Connection, Keypair, PublicKey, SendTransactionError, SystemProgram, Transaction } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeOfferAccount, takeAmounts } from "../../../lib/program/index";
import { decodeTransaction } from "../../../lib/program/transaction-decoder";
import type { RawTransaction } from "../../../lib/program/raw-transaction";
import { type LocalCluster, startLocalCluster } from "../../../local/cluster/index";
import { airdrop, ata, createAta, JUP, type MadeOffer, makeSellOffer, rpcCall, sendAndConfirm, takeInstruction, tokenAirdrop, USDC, versioned, WSOL } from "./wallet-helpers";

/** A wallet's take against the local cluster: refused by simulation and preflight, landed failed without preflight, and paid in wrapped SOL. */

const BELOW_MINIMUM_LOG = "Program log: AnchorError occurred. Error Code: FillBelowMinimum. Error Number: 6011. Error Message: Fill amount is below the minimum fill.";
const BELOW_MINIMUM_ERR = { InstructionError: [1, { Custom: 6011 }] };

let cluster: LocalCluster;
let connection: Connection;
let usdcOffer: MadeOffer;
const taker = Keypair.generate();

async function offerData(offer: PublicKey): Promise<Buffer> {
  const info = await connection.getAccountInfo(offer, "confirmed");
  if (!info) throw new Error("offer account missing");
  return info.data;
}

beforeAll(async () => {
  cluster = await startLocalCluster({ seed: "wallet-take", history: 200 });
  connection = new Connection(cluster.url, "confirmed");
  const maker = Keypair.generate();
  await airdrop(connection, maker.publicKey, 10);
  await tokenAirdrop(cluster, maker.publicKey, JUP, 1_000_000_000n);
  // 100 JUP at 0.5 USDC each, at least 10 JUP a fill.
  usdcOffer = await makeSellOffer(connection, cluster, maker, { paymentMint: USDC, size: 100_000_000n, pricePerToken: 5n, priceScale: 1, minFill: 10_000_000n, nonce: 1n });
  await airdrop(connection, taker.publicKey, 5);
  await tokenAirdrop(cluster, taker.publicKey, USDC, 1_000_000_000n);
});

afterAll(async () => {
  await cluster?.stop();
});

describe("a take below the offer's minimum fill", () => {
  const belowMinimum = () => [createAta(taker.publicKey, taker.publicKey, JUP), takeInstruction(cluster, usdcOffer, taker.publicKey, 5_000_000n)];

  it("simulates to the program's error with its log line and changes nothing", async () => {
    const before = await offerData(usdcOffer.offer);
    const lamports = await connection.getBalance(taker.publicKey);
    const unsigned = await versioned(connection, taker, belowMinimum(), false);
    const simulated = await connection.simulateTransaction(unsigned, { innerInstructions: true });
    expect(simulated.value.err).toEqual(BELOW_MINIMUM_ERR);
    expect(simulated.value.logs).toContain(BELOW_MINIMUM_LOG);
    expect(simulated.value.unitsConsumed).toBeGreaterThan(0);
    expect(simulated.value.accounts).toBeNull();
    // The ATA creation ran first, as inner System and token instructions.
    expect(simulated.value.innerInstructions?.[0]?.index).toBe(0);

    const legacy = new Transaction().add(...belowMinimum());
    legacy.feePayer = taker.publicKey;
    const legacySimulated = await connection.simulateTransaction(legacy);
    expect(legacySimulated.value.err).toEqual(BELOW_MINIMUM_ERR);
    expect(legacySimulated.value.logs).toContain(BELOW_MINIMUM_LOG);

    expect(await offerData(usdcOffer.offer)).toEqual(before);
    expect(await connection.getBalance(taker.publicKey)).toBe(lamports);
    expect(await connection.getAccountInfo(ata(taker.publicKey, JUP))).toBeNull();
  });

  it("is refused by sendTransaction's preflight with a SendTransactionError carrying the logs", async () => {
    const signed = await versioned(connection, taker, belowMinimum());
    const error = await connection.sendTransaction(signed).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SendTransactionError);
    const sendError = error as SendTransactionError;
    expect(sendError.message).toContain("Transaction simulation failed: Error processing Instruction 1: custom program error: 0x177b");
    expect(sendError.logs).toContain(BELOW_MINIMUM_LOG);
    const raw = await rpcCall(cluster.url, "sendTransaction", [Buffer.from(signed.serialize()).toString("base64"), { encoding: "base64" }]);
    expect(raw.error?.code).toBe(-32002);
    expect(raw.error?.data).toMatchObject({ err: BELOW_MINIMUM_ERR, accounts: null, returnData: null });
    const [status] = (await connection.getSignatureStatuses([bs58.encode(signed.signatures[0]!)])).value;
    expect(status).toBeNull();
  });

  it("lands failed with skipPreflight: fee charged, offer unchanged, err everywhere, nothing for the indexer", async () => {
    const before = await offerData(usdcOffer.offer);
    const lamports = await connection.getBalance(taker.publicKey);
    const signed = await versioned(connection, taker, belowMinimum());
    const signature = await connection.sendRawTransaction(signed.serialize(), { skipPreflight: true });
    const latest = await connection.getLatestBlockhash();
    // web3.js rejects with the transaction's error once its status shows it failed.
    await expect(connection.confirmTransaction({ signature, ...latest }, "confirmed")).rejects.toEqual(BELOW_MINIMUM_ERR);

    const landed = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0, commitment: "confirmed" });
    expect(landed?.meta?.err).toEqual(BELOW_MINIMUM_ERR);
    expect(landed?.meta?.logMessages).toContain(BELOW_MINIMUM_LOG);
    expect(landed?.meta?.fee).toBe(5000);
    expect(await connection.getBalance(taker.publicKey)).toBe(lamports - 5000);
    expect(await offerData(usdcOffer.offer)).toEqual(before);
    expect(await connection.getAccountInfo(ata(taker.publicKey, JUP))).toBeNull();
    const [status] = (await connection.getSignatureStatuses([signature])).value;
    expect(status?.err).toEqual(BELOW_MINIMUM_ERR);
    const listed = await connection.getSignaturesForAddress(usdcOffer.offer, { limit: 5 });
    expect(listed.find((s) => s.signature === signature)?.err).toEqual(BELOW_MINIMUM_ERR);

    // The scanner decodes what the worker fetches: a failed transaction yields no offer and no fill.
    const raw = await rpcCall<RawTransaction>(cluster.url, "getTransaction", [signature, { encoding: "json", maxSupportedTransactionVersion: 0, commitment: "confirmed" }]);
    const decoded = decodeTransaction(raw.result as RawTransaction, cluster.programId);
    expect(decoded.failed).toBe(true);
    expect(decoded.events).toEqual([]);
    const expected = cluster.expectedState();
    expect(expected.fills.some((f) => f.signature === signature)).toBe(false);
    expect(expected.offers.get(usdcOffer.offer.toBase58())?.account.remainingSize).toBe(100_000_000n);
  });
});

describe("paying in wrapped SOL", () => {
  it("wraps SOL (transfer + syncNative into the wSOL ATA), takes an offer paid in wSOL, then unwraps", async () => {
    const maker = Keypair.generate();
    await airdrop(connection, maker.publicKey, 10);
    await tokenAirdrop(cluster, maker.publicKey, JUP, 1_000_000_000n);
    // 50 JUP at 0.01 SOL each: 10 lamports per raw unit.
    const solOffer = await makeSellOffer(connection, cluster, maker, { paymentMint: WSOL, size: 50_000_000n, pricePerToken: 10n, priceScale: 0, minFill: 1_000_000n, nonce: 7n });
    const buyer = Keypair.generate();
    await airdrop(connection, buyer.publicKey, 3);
    const fill = 20_000_000n;
    const amounts = takeAmounts(fill, 10n, 0);
    const wsolAta = ata(buyer.publicKey, WSOL);
    const lamportsBefore = await connection.getBalance(buyer.publicKey);

    const signature = await sendAndConfirm(connection, buyer, [
      ComputeBudgetProgram.setComputeUnitLimit({ units: 300_000 }),
      ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 10_000 }),
      createAta(buyer.publicKey, buyer.publicKey, WSOL),
      SystemProgram.transfer({ fromPubkey: buyer.publicKey, toPubkey: wsolAta, lamports: amounts.paymentAmount }),
      createSyncNativeInstruction(wsolAta),
      createAta(buyer.publicKey, buyer.publicKey, JUP),
      takeInstruction(cluster, solOffer, buyer.publicKey, fill),
      createCloseAccountInstruction(wsolAta, buyer.publicKey, buyer.publicKey),
    ]);

    const landed = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0, commitment: "confirmed" });
    // Priority fee as the runtime charges it: ceil(price × limit / 10^6) on top of 5000 per signature.
    expect(landed?.meta?.fee).toBe(5000 + 3000);
    expect(landed?.meta?.err).toBeNull();
    const jupRent = await connection.getMinimumBalanceForRentExemption(165);
    expect(await connection.getBalance(buyer.publicKey)).toBe(lamportsBefore - 8000 - jupRent - Number(amounts.paymentAmount));
    expect(await connection.getAccountInfo(wsolAta)).toBeNull();
    expect((await connection.getTokenAccountBalance(ata(buyer.publicKey, JUP))).value.amount).toBe(fill.toString());

    const makerWsol = await connection.getParsedAccountInfo(ata(maker.publicKey, WSOL));
    const parsed = (makerWsol.value?.data as { parsed: { info: { isNative: boolean; tokenAmount: { amount: string } } } }).parsed.info;
    expect(parsed.isNative).toBe(true);
    expect(parsed.tokenAmount.amount).toBe(amounts.netAmount.toString());
    expect(makerWsol.value?.lamports).toBe(jupRent + Number(amounts.netAmount));
    const offer = decodeOfferAccount(await offerData(solOffer.offer));
    expect(offer?.remainingSize).toBe(50_000_000n - fill);
    expect(cluster.expectedState().fills.filter((f) => f.signature === signature).map((f) => f.fillAmount)).toEqual([fill]);
  });
});
