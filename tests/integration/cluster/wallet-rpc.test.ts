import {
  createAssociatedTokenAccountInstruction,
  createCloseAccountInstruction,
  createInitializeAccount3Instruction,
  createSyncNativeInstruction,
  createTransferCheckedInstruction,
  createTransferInstruction,
  getAssociatedTokenAddressSync,
  NATIVE_MINT,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
} from "@solana/spl-token";
import { ComputeBudgetProgram, Connection, Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOfferInstruction, findOfferAddress } from "../../../lib/program/index";
import { LOCAL_TOKEN_MINTS, type LocalCluster, startLocalCluster } from "../../../local/cluster/index";
import { airdrop, ata, createAta, JUP, rpcCall, sendAndConfirm, tokenAirdrop, USDC, versioned } from "./wallet-helpers";

/** The RPC a browser wallet needs from the local cluster: faucets, token accounts, CORS, and programs failing as real ones. */

let cluster: LocalCluster;
let connection: Connection;

beforeAll(async () => {
  cluster = await startLocalCluster({ seed: "wallet-rpc", history: 50 });
  connection = new Connection(cluster.url, "confirmed");
});

afterAll(async () => {
  await cluster?.stop();
});

describe("faucets", () => {
  it("requestAirdrop lands a signed faucet transfer; getBalance then shows it", async () => {
    const wallet = Keypair.generate();
    const signature = await connection.requestAirdrop(wallet.publicKey, 2 * LAMPORTS_PER_SOL);
    const latest = await connection.getLatestBlockhash();
    const confirmation = await connection.confirmTransaction({ signature, ...latest }, "confirmed");
    expect(confirmation.value.err).toBeNull();
    expect(await connection.getBalance(wallet.publicKey)).toBe(2 * LAMPORTS_PER_SOL);
    const landed = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(landed?.transaction.message.staticAccountKeys[0]?.toBase58()).toBe(cluster.faucet.address);
    expect((await rpcCall(cluster.url, "requestAirdrop", [wallet.publicKey.toBase58(), 1_001 * LAMPORTS_PER_SOL])).error?.code).toBe(-32602);
  });

  it("requestTokenAirdrop creates the owner's ATA and mints; getTokenAccountsByOwner shows it in base64 and jsonParsed", async () => {
    const owner = Keypair.generate().publicKey;
    await tokenAirdrop(cluster, owner, USDC, 250_000_000n);
    const signature = await tokenAirdrop(cluster, owner, USDC, 1_500_000n);
    expect((await connection.getSignatureStatuses([signature])).value[0]?.err).toBeNull();

    const binary = await connection.getTokenAccountsByOwner(owner, { mint: USDC });
    expect(binary.value.map((a) => a.pubkey.toBase58())).toEqual([ata(owner, USDC).toBase58()]);
    const data = binary.value[0]!.account.data;
    expect(data.length).toBe(165);
    expect(data.readBigUInt64LE(64)).toBe(251_500_000n);
    expect(binary.value[0]!.account.owner.equals(TOKEN_PROGRAM_ID)).toBe(true);

    const parsed = await connection.getParsedTokenAccountsByOwner(owner, { programId: TOKEN_PROGRAM_ID });
    expect(parsed.value).toHaveLength(1);
    expect(parsed.value[0]!.account.data).toEqual({
      program: "spl-token",
      space: 165,
      parsed: {
        type: "account",
        info: {
          isNative: false,
          mint: USDC.toBase58(),
          owner: owner.toBase58(),
          state: "initialized",
          tokenAmount: { amount: "251500000", decimals: 6, uiAmount: 251.5, uiAmountString: "251.5" },
        },
      },
    });
    const balance = await connection.getTokenAccountBalance(ata(owner, USDC));
    expect(balance.value).toEqual({ amount: "251500000", decimals: 6, uiAmount: 251.5, uiAmountString: "251.5" });
    const [mintInfo] = (await connection.getMultipleParsedAccounts([USDC])).value;
    expect((mintInfo?.data as { parsed: { type: string; info: { decimals: number } } }).parsed).toMatchObject({ type: "mint", info: { decimals: 6 } });
  });

  it("requestTokenAirdrop serves Token-2022 mints too, into an ATA with the ImmutableOwner extension", async () => {
    const owner = Keypair.generate().publicKey;
    const ltt = new PublicKey(LOCAL_TOKEN_MINTS.find((m) => m.symbol === "LTT")!.address);
    await tokenAirdrop(cluster, owner, ltt, 12n);
    const parsed = await connection.getParsedTokenAccountsByOwner(owner, { programId: TOKEN_2022_PROGRAM_ID });
    expect(parsed.value.map((a) => a.pubkey.toBase58())).toEqual([getAssociatedTokenAddressSync(ltt, owner, false, TOKEN_2022_PROGRAM_ID).toBase58()]);
    expect(parsed.value[0]!.account.data.parsed.info).toMatchObject({ mint: ltt.toBase58(), tokenAmount: { amount: "12", decimals: 0 }, extensions: [{ extension: "immutableOwner" }] });
  });

  it("requestTokenAirdrop refuses unknown mints, wrapped SOL, absurd and malformed amounts", async () => {
    const owner = Keypair.generate().publicKey.toBase58();
    const unknown = await rpcCall(cluster.url, "requestTokenAirdrop", [owner, Keypair.generate().publicKey.toBase58(), "1"]);
    expect(unknown.error?.code).toBe(-32602);
    expect(unknown.error?.message).toContain("is not a mint of the local cluster");
    const wsol = await rpcCall(cluster.url, "requestTokenAirdrop", [owner, "So11111111111111111111111111111111111111112", "1"]);
    expect(wsol.error?.message).toContain("wrap it");
    const absurd = await rpcCall(cluster.url, "requestTokenAirdrop", [owner, USDC.toBase58(), (10n ** 20n).toString()]);
    expect(absurd.error?.message).toContain("at most");
    expect((await rpcCall(cluster.url, "requestTokenAirdrop", [owner, USDC.toBase58(), "1.5"])).error?.code).toBe(-32602);
    expect((await rpcCall(cluster.url, "requestTokenAirdrop", [owner, USDC.toBase58(), 5])).error?.code).toBe(-32602);
  });
});

describe("programs a wallet uses fail as the real ones do", () => {
  let wallet: Keypair;

  beforeAll(async () => {
    wallet = Keypair.generate();
    await airdrop(connection, wallet.publicKey, 1);
    await tokenAirdrop(cluster, wallet.publicKey, JUP, 5_000_000n);
  });

  async function simulate(instructions: Parameters<typeof versioned>[2]) {
    return (await connection.simulateTransaction(await versioned(connection, wallet, instructions, false))).value;
  }

  it("System transfer beyond the balance: custom error 1 with the runtime's log line", async () => {
    const result = await simulate([SystemProgram.transfer({ fromPubkey: wallet.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 2 * LAMPORTS_PER_SOL })]);
    expect(result.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    expect(result.logs?.some((l) => l.startsWith("Transfer: insufficient lamports"))).toBe(true);
  });

  it("simulateTransaction returns the accounts asked for as the transaction left them, and commits nothing", async () => {
    const recipient = Keypair.generate().publicKey;
    const tx = await versioned(connection, wallet, [SystemProgram.transfer({ fromPubkey: wallet.publicKey, toPubkey: recipient, lamports: 5_000_000 })], false);
    const result = (await connection.simulateTransaction(tx, { accounts: { addresses: [recipient.toBase58(), ata(wallet.publicKey, JUP).toBase58()], encoding: "base64" } })).value;
    expect(result.err).toBeNull();
    expect(result.accounts?.[0]?.lamports).toBe(5_000_000);
    expect(result.accounts?.[1]?.owner).toBe(TOKEN_PROGRAM_ID.toBase58());
    expect(await connection.getBalance(recipient)).toBe(0);
  });

  it("token transfers: insufficient funds, wrong decimals, wrong owner", async () => {
    const source = ata(wallet.publicKey, JUP);
    const other = Keypair.generate().publicKey;
    const destination = ata(other, JUP);
    const create = createAta(wallet.publicKey, other, JUP);
    const tooMuch = await simulate([create, createTransferInstruction(source, destination, wallet.publicKey, 6_000_000n)]);
    expect(tooMuch.err).toEqual({ InstructionError: [1, { Custom: 1 }] });
    expect(tooMuch.logs).toContain("Program log: Error: insufficient funds");
    const decimals = await simulate([create, createTransferCheckedInstruction(source, JUP, destination, wallet.publicKey, 1n, 9)]);
    expect(decimals.err).toEqual({ InstructionError: [1, { Custom: 18 }] });
    const notOwner = await simulate([create, createTransferInstruction(destination, source, wallet.publicKey, 0n)]);
    expect(notOwner.err).toEqual({ InstructionError: [1, { Custom: 4 }] });
    const ok = await simulate([create, createTransferCheckedInstruction(source, JUP, destination, wallet.publicKey, 2_000_000n, 6)]);
    expect(ok.err).toBeNull();
  });

  it("ATA create fails when the account exists, createIdempotent does not", async () => {
    const again = await simulate([createAssociatedTokenAccountInstruction(wallet.publicKey, ata(wallet.publicKey, JUP), wallet.publicKey, JUP)]);
    expect(again.err).toEqual({ InstructionError: [0, { Custom: 0 }] });
    expect((await simulate([createAta(wallet.publicKey, wallet.publicKey, JUP)])).err).toBeNull();
  });

  it("createAccount then initializeAccount3 of the native mint makes a wrapped-SOL account; a second createAccount finds it in use", async () => {
    const account = Keypair.generate();
    const rent = await connection.getMinimumBalanceForRentExemption(165);
    const create = SystemProgram.createAccount({ fromPubkey: wallet.publicKey, newAccountPubkey: account.publicKey, lamports: rent + 1_000, space: 165, programId: TOKEN_PROGRAM_ID });
    const tx = await versioned(connection, wallet, [create, createInitializeAccount3Instruction(account.publicKey, NATIVE_MINT, wallet.publicKey)], false);
    tx.sign([wallet, account]);
    const signature = await connection.sendTransaction(tx);
    expect((await connection.getSignatureStatuses([signature])).value[0]?.err).toBeNull();
    const parsed = (await connection.getParsedAccountInfo(account.publicKey)).value?.data as { parsed: { info: Record<string, unknown> } };
    expect(parsed.parsed.info).toMatchObject({ isNative: true, owner: wallet.publicKey.toBase58(), tokenAmount: { amount: "1000", decimals: 9 }, rentExemptReserve: { amount: String(rent) } });

    const again = await versioned(connection, wallet, [create], false);
    again.sign([wallet, account]);
    const inUse = (await connection.simulateTransaction(again)).value;
    expect(inUse.err).toEqual({ InstructionError: [0, { Custom: 0 }] });
    expect(inUse.logs?.some((l) => l.includes("already in use"))).toBe(true);
  });

  it("create_offer by a maker short of lamports fails with the System program's insufficient-lamports error, not a node error", async () => {
    const poor = Keypair.generate();
    const signature = await connection.requestAirdrop(poor.publicKey, 2_100_000);
    await connection.confirmTransaction({ signature, ...(await connection.getLatestBlockhash()) }, "confirmed");
    await tokenAirdrop(cluster, poor.publicKey, JUP, 5_000_000n);
    const programId = new PublicKey(cluster.programId);
    const { address: offer } = findOfferAddress(programId, poor.publicKey, 1n);
    const create = createOfferInstruction(
      programId,
      { maker: poor.publicKey, offer, tokenMint: JUP, paymentMint: USDC, escrow: ata(offer, JUP), makerSource: ata(poor.publicKey, JUP), tokenProgram: TOKEN_PROGRAM_ID },
      { side: "sell", nonce: 1n, size: 1_000_000n, pricePerToken: 1n, priceScale: 0, minFill: 1n, expiresAt: BigInt(cluster.ledger.tip.blockTime + 3_600) },
    );
    const tx = await versioned(connection, poor, [create], false);
    const result = (await connection.simulateTransaction(tx)).value;
    expect(result.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    expect(result.logs?.some((l) => l.startsWith("Transfer: insufficient lamports"))).toBe(true);
  });

  it("closeAccount refuses a non-native account holding tokens; syncNative refuses a non-native account", async () => {
    const jup = ata(wallet.publicKey, JUP);
    const close = await simulate([createCloseAccountInstruction(jup, wallet.publicKey, wallet.publicKey)]);
    expect(close.err).toEqual({ InstructionError: [0, { Custom: 11 }] });
    const sync = await simulate([createSyncNativeInstruction(jup)]);
    expect(sync.err).toEqual({ InstructionError: [0, { Custom: 19 }] });
  });

  it("an unsigned transaction is refused by sendTransaction, and by simulateTransaction with sigVerify", async () => {
    const unsigned = await versioned(connection, wallet, [SystemProgram.transfer({ fromPubkey: wallet.publicKey, toPubkey: wallet.publicKey, lamports: 1 })], false);
    const wire = Buffer.from(unsigned.serialize()).toString("base64");
    expect((await rpcCall(cluster.url, "sendTransaction", [wire, { encoding: "base64" }])).error?.code).toBe(-32003);
    expect((await rpcCall(cluster.url, "simulateTransaction", [wire, { encoding: "base64", sigVerify: true }])).error?.code).toBe(-32003);
    const replaced = await rpcCall<{ value: { err: unknown; replacementBlockhash: { blockhash: string } } }>(cluster.url, "simulateTransaction", [
      wire,
      { encoding: "base64", replaceRecentBlockhash: true },
    ]);
    expect(replaced.result?.value.err).toBeNull();
    expect(typeof replaced.result?.value.replacementBlockhash.blockhash).toBe("string");
    await sendAndConfirm(connection, wallet, [SystemProgram.transfer({ fromPubkey: wallet.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1_000_000 })]);
  });
});

describe("fees", () => {
  it("charges a priority fee without a unit limit on the default limit, 3,000 units per builtin instruction, as getFeeForMessage quotes", async () => {
    const payer = Keypair.generate();
    await airdrop(connection, payer.publicKey, 1);
    const instructions = [
      ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 1_000_000 }),
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1_000_000 }),
    ];
    const quoted = await connection.getFeeForMessage((await versioned(connection, payer, instructions, false)).message);
    expect(quoted.value).toBe(5000 + 6000);
    const signature = await sendAndConfirm(connection, payer, instructions);
    const landed = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0, commitment: "confirmed" });
    expect(landed?.meta?.fee).toBe(5000 + 6000);
    const recent = await connection.getRecentPrioritizationFees({ lockedWritableAccounts: [payer.publicKey] });
    expect(recent.find((f) => f.slot === landed?.slot)?.prioritizationFee).toBe(1_000_000);
    expect(recent.length).toBeGreaterThan(1);
    expect(await connection.getBalance(payer.publicKey)).toBe(LAMPORTS_PER_SOL - 1_000_000 - 11_000);
  });
});

describe("CORS", () => {
  it("answers the browser's preflight and allows any origin on the POST", async () => {
    const preflight = await fetch(cluster.url, {
      method: "OPTIONS",
      headers: { origin: "http://localhost:3000", "access-control-request-method": "POST", "access-control-request-headers": "content-type,solana-client" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
    expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("solana-client");
    const post = await fetch(cluster.url, {
      method: "POST",
      headers: { origin: "http://localhost:3000", "content-type": "application/json", "solana-client": "js/1.0.0" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getSlot" }),
    });
    expect(post.headers.get("access-control-allow-origin")).toBe("*");
    expect(((await post.json()) as { result: number }).result).toBeGreaterThan(0);
  });
});
