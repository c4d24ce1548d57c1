import { Buffer } from "buffer";
import { ComputeBudgetProgram, PACKET_DATA_SIZE, PublicKey, SystemProgram, Transaction, type TransactionInstruction } from "@solana/web3.js";
import { ASSOCIATED_TOKEN_PROGRAM_ID, decodeCloseAccountInstruction, decodeSyncNativeInstruction, getAssociatedTokenAddressSync } from "@solana/spl-token";
import { describe, expect, it } from "vitest";
import {
  cancelInstructionGroup,
  cancelInstructions,
  closeInstructions,
  createInstructions,
  decodeInstruction,
  derivedEscrowAddress,
  describeSendError,
  describeTransactionError,
  expireInstructions,
  findOfferAddress,
  packInstructionGroups,
  priorityFeeMicroLamports,
  readComputeBudget,
  takeInstructions,
  TOKEN_PROGRAM_ADDRESS,
  transactionFeeLamports,
  transactionSize,
  unitsFromSimulation,
  withComputeUnitLimit,
  WRAPPED_SOL_MINT,
  type CreateOfferArgs,
} from "../../lib/program";

const k = (byte: number) => new PublicKey(new Uint8Array(32).fill(byte));
const PROGRAM = k(9);
const TREASURY = k(8);
const TOKEN_PROGRAM = new PublicKey(TOKEN_PROGRAM_ADDRESS);
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const TOKEN = k(3).toBase58();
const tokenProgramOf = () => TOKEN_PROGRAM;
const ata = (owner: PublicKey, mint: string) => getAssociatedTokenAddressSync(new PublicKey(mint), owner, true, TOKEN_PROGRAM);
const programs = (ixs: TransactionInstruction[]) => ixs.map((ix) => ix.programId.toBase58());
const offerIx = (ixs: TransactionInstruction[]) => ixs.find((ix) => ix.programId.equals(PROGRAM)) as TransactionInstruction;

/** Through the wire and back: what a node receives, with the offer-program instruction decoded by lib/program. */
function decodeFromWire(ixs: TransactionInstruction[], payer: PublicKey) {
  const wire = new Transaction({ feePayer: payer, recentBlockhash: PublicKey.default.toBase58() }).add(...ixs).serialize({ requireAllSignatures: false, verifySignatures: false });
  const back = Transaction.from(wire);
  const ix = offerIx(back.instructions);
  return decodeInstruction(ix.data, ix.keys.map((m) => m.pubkey.toBase58()));
}

describe("take transaction", () => {
  const taker = k(1);
  const maker = k(2);
  const offerAddress = k(4);
  const escrow = k(5);
  const base = { programId: PROGRAM, treasury: TREASURY, taker, offerAddress, escrow, fillAmount: 1_500_000n, paymentAmount: 1_875_000n, tokenProgramOf };

  it("a sell offer paid in USDC: taker, maker and treasury accounts made sure of, then the take, decoded back byte for byte", () => {
    const ixs = takeInstructions({ ...base, offer: { maker: maker.toBase58(), tokenMint: TOKEN, paymentMint: USDC, side: "sell" } });
    const ATA = ASSOCIATED_TOKEN_PROGRAM_ID.toBase58();
    expect(programs(ixs)).toEqual([ATA, ATA, ATA, PROGRAM.toBase58()]);
    expect(ixs[0]?.data).toEqual(Buffer.from([1])); // CreateIdempotent
    expect(Buffer.from(offerIx(ixs).data).toString("hex")).toBe("809cf2cfedc067f0" + "60e3160000000000");
    expect(decodeFromWire(ixs, taker)).toEqual({
      name: "take_offer",
      args: { fillAmount: 1_500_000n },
      accounts: {
        taker: taker.toBase58(),
        offer: offerAddress.toBase58(),
        maker: maker.toBase58(),
        tokenMint: TOKEN,
        paymentMint: USDC,
        escrow: escrow.toBase58(),
        takerTokenAccount: ata(taker, TOKEN).toBase58(),
        takerPaymentAccount: ata(taker, USDC).toBase58(),
        makerReceiveAccount: ata(maker, USDC).toBase58(),
        treasuryPaymentAccount: ata(TREASURY, USDC).toBase58(),
        tokenProgram: TOKEN_PROGRAM_ADDRESS,
      },
    });
  });

  it("a sell offer paid in SOL wraps the gross payment before the take and unwraps after", () => {
    const ixs = takeInstructions({ ...base, offer: { maker: maker.toBase58(), tokenMint: TOKEN, paymentMint: WRAPPED_SOL_MINT, side: "sell" } });
    const wrapped = ata(taker, WRAPPED_SOL_MINT);
    const transfer = ixs.find((ix) => ix.programId.equals(SystemProgram.programId)) as TransactionInstruction;
    expect(transfer.keys.map((m) => m.pubkey.toBase58())).toEqual([taker.toBase58(), wrapped.toBase58()]);
    expect(Buffer.from(transfer.data).readBigUInt64LE(4)).toBe(1_875_000n);
    const takeAt = ixs.indexOf(offerIx(ixs));
    expect(decodeSyncNativeInstruction(ixs[takeAt - 1] as TransactionInstruction, TOKEN_PROGRAM).keys.account.pubkey.equals(wrapped)).toBe(true);
    expect(decodeCloseAccountInstruction(ixs[takeAt + 1] as TransactionInstruction, TOKEN_PROGRAM).keys.destination.pubkey.equals(taker)).toBe(true);
    expect(takeAt + 2).toBe(ixs.length);
  });

  it("a buy offer's maker receives tokens; a taker receiving SOL unwraps without wrapping", () => {
    const ixs = takeInstructions({ ...base, offer: { maker: maker.toBase58(), tokenMint: TOKEN, paymentMint: WRAPPED_SOL_MINT, side: "buy" } });
    expect(ixs.some((ix) => ix.programId.equals(SystemProgram.programId))).toBe(false);
    const decoded = decodeFromWire(ixs, taker);
    expect(decoded?.name === "take_offer" && decoded.accounts.makerReceiveAccount).toBe(ata(maker, TOKEN).toBase58());
    expect(programs(ixs).at(-1)).toBe(TOKEN_PROGRAM_ADDRESS);
  });
});

describe("create, cancel, expire and close transactions", () => {
  const maker = k(2);
  const args: CreateOfferArgs = { side: "buy", nonce: 7n, size: 5_000_000_000n, pricePerToken: 125n, priceScale: 3, minFill: 0n, expiresAt: 1_700_086_400n };

  it("a buy offer in SOL wraps its total for the escrow; create_offer decodes back to its arguments", async () => {
    const escrowOf = derivedEscrowAddress(findOfferAddress(PROGRAM, maker, 7n).address, TOKEN_PROGRAM);
    const { offer, instructions } = createInstructions({
      programId: PROGRAM, maker, tokenMint: new PublicKey(TOKEN), paymentMint: new PublicKey(WRAPPED_SOL_MINT), args, escrowFor: () => escrowOf, tokenProgramOf,
    });
    expect(offer.equals(findOfferAddress(PROGRAM, maker, 7n).address)).toBe(true);
    const transfer = instructions.find((ix) => ix.programId.equals(SystemProgram.programId)) as TransactionInstruction;
    expect(Buffer.from(transfer.data).readBigUInt64LE(4)).toBe(625_000_000n); // 5e9 * 125 / 1000
    expect(Buffer.from(offerIx(instructions).data).toString("hex")).toBe(
      "ede9c0a8f807f9f1" + "01" + "0700000000000000" + "00f2052a01000000" + "7d00000000000000" + "03" + "0000000000000000" + "8042556500000000",
    );
    expect(decodeFromWire(instructions, maker)).toMatchObject({
      name: "create_offer",
      args,
      accounts: { maker: maker.toBase58(), offer: offer.toBase58(), escrow: escrowOf.toBase58(), makerSource: ata(maker, WRAPPED_SOL_MINT).toBase58() },
    });
  });

  it("derives the escrow as the local cluster does: sha256(offer ‖ 'escrow' ‖ token program)", async () => {
    const { createHash } = await import("node:crypto");
    const offer = k(4);
    const expected = createHash("sha256").update(offer.toBytes()).update("escrow").update(TOKEN_PROGRAM.toBytes()).digest();
    expect((derivedEscrowAddress(offer, TOKEN_PROGRAM)).toBytes()).toEqual(new Uint8Array(expected));
  });

  const refund = { programId: PROGRAM, offerAddress: k(4), escrow: k(5), tokenProgramOf };
  it("cancel refunds into the maker's account of the escrow mint and unwraps SOL", () => {
    const sell = cancelInstructions({ ...refund, offer: { maker: maker.toBase58(), tokenMint: TOKEN, paymentMint: USDC, side: "sell" } });
    expect(decodeFromWire(sell, maker)).toMatchObject({ name: "cancel_offer", accounts: { makerRefundAccount: ata(maker, TOKEN).toBase58() } });
    const buySol = cancelInstructions({ ...refund, offer: { maker: maker.toBase58(), tokenMint: TOKEN, paymentMint: WRAPPED_SOL_MINT, side: "buy" } });
    expect(programs(buySol).at(-1)).toBe(TOKEN_PROGRAM_ADDRESS);
  });

  it("expire is signed by the cranker, who pays for the maker's refund account", () => {
    const cranker = k(6);
    const ixs = expireInstructions({ ...refund, cranker, offer: { maker: maker.toBase58(), tokenMint: TOKEN, paymentMint: USDC, side: "buy" } });
    expect(ixs[0]?.keys[0]?.pubkey.equals(cranker)).toBe(true);
    expect(decodeFromWire(ixs, cranker)).toMatchObject({ name: "expire_offer", accounts: { cranker: cranker.toBase58(), maker: maker.toBase58(), makerRefundAccount: ata(maker, USDC).toBase58() } });
    expect(decodeFromWire(closeInstructions(PROGRAM, maker, k(4)), maker)).toEqual({ name: "close_offer", args: {}, accounts: { maker: maker.toBase58(), offer: k(4).toBase58() } });
  });
});

describe("packing", () => {
  const maker = k(2);
  const closes = Array.from({ length: 60 }, (_, i) => ({ main: closeInstructions(PROGRAM, maker, new PublicKey(new Uint8Array(32).fill(i + 20))) }));
  const options = { payer: maker, programId: PROGRAM.toBase58(), microLamports: 1_000 };

  it("packs as many instructions per transaction as fit 1232 bytes, each transaction full, none over", () => {
    const txs = packInstructionGroups(closes, options);
    expect(txs.flat().filter((ix) => ix.programId.equals(PROGRAM))).toHaveLength(60);
    let used = 0;
    txs.forEach((tx, i) => {
      expect(tx[0]?.programId.equals(ComputeBudgetProgram.programId)).toBe(true);
      expect(transactionSize(tx, maker)).toBeLessThanOrEqual(PACKET_DATA_SIZE);
      const count = tx.filter((ix) => ix.programId.equals(PROGRAM)).length;
      used += count;
      const next = closes[used];
      if (i < txs.length - 1 && next) expect(transactionSize([...tx, ...next.main], maker)).toBeGreaterThan(PACKET_DATA_SIZE);
    });
    expect(txs.length).toBeGreaterThan(1);
  });

  it("shares one refund-account setup among the cancels of a transaction", () => {
    const groups = [20, 21, 22].map((b) =>
      cancelInstructionGroup({ programId: PROGRAM, offerAddress: k(b), escrow: k(b + 10), tokenProgramOf, offer: { maker: maker.toBase58(), tokenMint: TOKEN, paymentMint: USDC, side: "sell" } }),
    );
    const [tx] = packInstructionGroups(groups, options);
    expect(tx?.filter((ix) => ix.programId.equals(ASSOCIATED_TOKEN_PROGRAM_ID))).toHaveLength(1);
    expect(tx?.filter((ix) => ix.programId.equals(PROGRAM))).toHaveLength(3);
  });

  it("refuses a group that alone exceeds the limit", () => {
    expect(() => packInstructionGroups(closes.slice(0, 1), { ...options, maxBytes: 100 })).toThrow(/do not fit/);
  });
});

describe("fees and errors", () => {
  it("prices priority at the 75th percentile of paid recent fees, within bounds", () => {
    expect(priorityFeeMicroLamports([])).toBe(1_000);
    expect(priorityFeeMicroLamports([0, 0, 0])).toBe(1_000);
    expect(priorityFeeMicroLamports([5_000, 10_000, 20_000, 40_000])).toBe(40_000);
    expect(priorityFeeMicroLamports([10_000_000])).toBe(1_000_000);
    expect(transactionFeeLamports(1, { units: 200_000, microLamports: 1_000 })).toBe(5_200n);
    expect(unitsFromSimulation(50_000, 300_000)).toBe(60_600);
    expect(unitsFromSimulation(undefined, 300_000)).toBe(300_000);
  });

  it("reads a transaction's budget back and replaces its unit limit in place", () => {
    const [tx] = packInstructionGroups([{ main: closeInstructions(PROGRAM, k(2), k(4)) }], { payer: k(2), programId: PROGRAM.toBase58(), microLamports: 7_500 });
    const planned = readComputeBudget(tx ?? []);
    expect(planned).toEqual({ units: 15_600, microLamports: 7_500 }); // close 15k + two budget instructions
    const rebudgeted = withComputeUnitLimit(tx ?? [], 9_000);
    expect(rebudgeted).toHaveLength(tx?.length ?? 0);
    expect(readComputeBudget(rebudgeted)).toEqual({ units: 9_000, microLamports: 7_500 });
    expect(readComputeBudget([])).toEqual({ units: 200_000, microLamports: 0 });
  });

  it("names the program's, Anchor's, token and runtime errors in words", () => {
    const ixPrograms = [ComputeBudgetProgram.programId.toBase58(), PROGRAM.toBase58(), TOKEN_PROGRAM_ADDRESS];
    expect(describeTransactionError({ InstructionError: [1, { Custom: 6011 }] }, { instructionPrograms: ixPrograms })).toBe("Fill amount is below the minimum fill");
    expect(describeTransactionError({ InstructionError: [2, { Custom: 1 }] }, { instructionPrograms: ixPrograms })).toBe("Insufficient token balance");
    expect(describeTransactionError({ InstructionError: [1, { Custom: 3012 }] }, { instructionPrograms: ixPrograms })).toMatch(/already initialized/);
    expect(describeTransactionError("BlockhashNotFound")).toMatch(/blockhash expired/);
    expect(describeTransactionError({ InsufficientFundsForRent: { account_index: 0 } })).toMatch(/rent-exempt/);
    const logs = ["Program log: AnchorError caused by account: treasury_payment_account. Error Code: ConstraintTokenOwner. Error Number: 2015. Error Message: A token owner constraint was violated."];
    expect(describeTransactionError({ InstructionError: [1, { Custom: 2015 }] }, { logs, instructionPrograms: ixPrograms })).toBe("A token owner constraint was violated");
    expect(describeSendError(Object.assign(new Error("Simulation failed"), { logs }))).toBe("A token owner constraint was violated");
    expect(describeSendError(new Error("User rejected the request."))).toBe("The wallet declined to sign");
    expect(describeSendError(new Error("failed to send transaction: custom program error: 0x177b"))).toBe("Fill amount is below the minimum fill");
  });
});
