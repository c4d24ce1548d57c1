import { Connection, type AccountInfo, Keypair, SolanaJSONRPCError, SystemProgram, type ParsedInstruction, type PartiallyDecodedInstruction, type VersionedAccountsModeBlockResponse } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalCluster, startLocalCluster } from "../../../local/cluster/index";
import { ata, JUP, rpcCall } from "./wallet-helpers";
import { until } from "../../helpers/until";

// getParsedTransaction, getBlock / getParsedBlock and onAccountChange through
// @solana/web3.js, whose superstruct schemas check every field of the
// response: what it accepts is the shape a validator sends.

const GENESIS = Date.UTC(2025, 0, 1);
let cluster: LocalCluster;
let connection: Connection;

beforeAll(async () => {
  cluster = await startLocalCluster({ seed: "web3-parsed", history: 600, genesisUnixMs: GENESIS });
  connection = new Connection(cluster.url, "confirmed");
});

afterAll(async () => {
  // web3.js reconnects its socket forever: stop that before the cluster goes.
  const socket = (connection as unknown as { _rpcWebSocket: { setAutoReconnect(on: boolean): void; close(): void } })._rpcWebSocket;
  socket.setAutoReconnect(false);
  socket.close();
  await cluster?.stop();
});

const isParsed = (ix: ParsedInstruction | PartiallyDecodedInstruction): ix is ParsedInstruction => "parsed" in ix;

describe("getParsedTransaction", () => {
  it("parses a routed take's token transfers and leaves the offer-book program and the router partially decoded", async () => {
    const [take] = cluster.append("cpi_take");
    const parsed = await connection.getParsedTransaction(take!.signature, { maxSupportedTransactionVersion: 0 });
    expect(parsed).not.toBeNull();
    const outer = parsed!.transaction.message.instructions;
    expect(outer.some((ix) => !isParsed(ix) && ix.programId.toBase58() === cluster.routerProgramId)).toBe(true);
    const inner = parsed!.meta!.innerInstructions!.flatMap((group) => group.instructions);
    expect(inner.some((ix) => !isParsed(ix) && ix.programId.toBase58() === cluster.programId)).toBe(true);
    const transfers = inner.filter(isParsed).filter((ix) => ix.program === "spl-token");
    expect(transfers.length).toBeGreaterThan(0);
    for (const transfer of transfers) {
      expect(["transfer", "transferChecked"]).toContain(transfer.parsed.type);
      expect(transfer.parsed.info).toHaveProperty("source");
    }
    // Its accounts carry their roles; the payer signs and pays.
    const [payer] = parsed!.transaction.message.accountKeys;
    expect(payer).toMatchObject({ signer: true, writable: true, source: "transaction" });
    expect(parsed!.meta).not.toHaveProperty("loadedAddresses");
  });

  it("parses a wallet's token airdrop: the associated account created idempotently, then minted with its decimals", async () => {
    const owner = Keypair.generate().publicKey;
    const signature = cluster.faucet.tokenAirdrop(owner.toBase58(), JUP.toBase58(), 2_500_000n);
    const parsed = await connection.getParsedTransaction(signature, { maxSupportedTransactionVersion: 0 });
    const [create, mint] = parsed!.transaction.message.instructions as ParsedInstruction[];
    expect(create).toMatchObject({ program: "spl-associated-token-account", parsed: { type: "createIdempotent", info: { wallet: owner.toBase58(), mint: JUP.toBase58(), account: ata(owner, JUP).toBase58() } } });
    expect(mint).toMatchObject({ program: "spl-token", parsed: { type: "mintToChecked", info: { tokenAmount: { amount: "2500000", decimals: 6, uiAmountString: "2.5" } } } });
    // The associated account program's own inner instructions: the System createAccount and the token program's initialization.
    const inner = parsed!.meta!.innerInstructions![0]!.instructions as ParsedInstruction[];
    expect(inner.map((ix) => `${ix.program}:${ix.parsed.type}`)).toEqual(["spl-token:getAccountDataSize", "system:createAccount", "spl-token:initializeImmutableOwner", "spl-token:initializeAccount3"]);
  });
});

describe("getBlock and getParsedBlock", () => {
  it("returns a block's transactions in full, as signatures, as accounts, or none", async () => {
    const [tx] = cluster.append("take");
    const block = await connection.getBlock(tx!.slot, { maxSupportedTransactionVersion: 0 });
    expect(block!.transactions.map((t) => t.transaction.signatures[0])).toContain(tx!.signature);
    // web3.js's type leaves blockHeight out; its schema checks it.
    expect((block as unknown as { blockHeight: number }).blockHeight).toBe(cluster.ledger.slot(tx!.slot)!.blockHeight);
    expect(block!.previousBlockhash).toBe(cluster.ledger.slot(block!.parentSlot)!.blockhash);
    // web3.js asks for signatures without rewards.
    const signatures = await connection.getBlockSignatures(tx!.slot);
    expect(signatures.signatures).toContain(tx!.signature);
    expect(signatures).not.toHaveProperty("rewards");
    // The overload for `accounts` comes after the general one, which TypeScript picks.
    const accounts = (await connection.getBlock(tx!.slot, { maxSupportedTransactionVersion: 0, transactionDetails: "accounts" })) as VersionedAccountsModeBlockResponse | null;
    expect(accounts!.transactions[0]!.transaction.accountKeys[0]).toMatchObject({ signer: true, writable: true });
    const none = await connection.getBlock(tx!.slot, { maxSupportedTransactionVersion: 0, transactionDetails: "none" });
    expect(none).not.toHaveProperty("transactions");
    const parsed = await connection.getParsedBlock(tx!.slot, { maxSupportedTransactionVersion: 0 });
    expect(parsed.transactions.map((t) => t.transaction.signatures[0])).toContain(tx!.signature);
  });

  it("refuses a block holding a v0 transaction without maxSupportedTransactionVersion, and answers a node's errors for slots it cannot give", async () => {
    const v0 = cluster.ledger.transactions.find((t) => t.version === 0)!;
    await expect(connection.getBlock(v0.slot)).rejects.toMatchObject({ code: -32015 });
    // A skipped slot, made final by the blocks after it.
    const skipped = cluster.ledger.tip.slot + 1;
    cluster.ledger.openSlot(skipped + 1);
    cluster.advanceSlots(40);
    const error = await connection.getBlock(skipped, { maxSupportedTransactionVersion: 0, commitment: "finalized" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SolanaJSONRPCError);
    expect(error).toMatchObject({ code: -32007 });
    await expect(connection.getBlock(cluster.ledger.tip.slot + 10, { maxSupportedTransactionVersion: 0 })).rejects.toMatchObject({ code: -32004 });
    const unfinalized = await rpcCall(cluster.url, "getBlock", [cluster.ledger.tip.slot, { maxSupportedTransactionVersion: 0 }]);
    expect(unfinalized.error?.code).toBe(-32004);
    const cleanedUp = await rpcCall(cluster.url, "getBlock", [1, {}]);
    expect(cleanedUp.error).toEqual({ code: -32001, message: `Block 1 cleaned up, does not exist on node. First available block: ${cluster.ledger.firstAvailableSlot}` });
    expect((await rpcCall(cluster.url, "getBlock", [cluster.ledger.tip.slot, { commitment: "processed" }])).error?.code).toBe(-32602);
  });
});

describe("onAccountChange", () => {
  it("notifies each change of an account at the commitment asked, and stops after removeAccountChangeListener", async () => {
    const watched = Keypair.generate().publicKey;
    const seen: Array<[AccountInfo<Buffer>, number]> = [];
    const id = connection.onAccountChange(watched, (info, ctx) => seen.push([info, ctx.slot]), { commitment: "confirmed" });
    const subscriptions = async () => ((await (await fetch(`${cluster.url}/_admin/websocket`)).json()) as { subscriptions: number }).subscriptions;
    await until("the subscription", async () => (await subscriptions()) === 1);

    cluster.faucet.airdrop(watched.toBase58(), 1_000n);
    const second = cluster.faucet.airdrop(watched.toBase58(), 500n);
    await until("two notifications", () => seen.length === 2);
    expect(seen.map(([info]) => info.lamports)).toEqual([1_000, 1_500]);
    expect(seen[1]![0]).toMatchObject({ owner: SystemProgram.programId, executable: false });
    expect(seen[1]![1]).toBe(cluster.ledger.bySignatureAvailable(second)!.slot);
    // Another account's change is not this one's.
    cluster.faucet.airdrop(Keypair.generate().publicKey.toBase58(), 1n);

    await connection.removeAccountChangeListener(id);
    await until("no subscription", async () => (await subscriptions()) === 0);
    cluster.faucet.airdrop(watched.toBase58(), 1n);
    // A later notification on the same socket fences the one that must not come.
    const fence = Keypair.generate().publicKey;
    let fenced = false;
    connection.onAccountChange(fence, () => (fenced = true), { commitment: "confirmed" });
    await until("the fence subscribed", async () => (await subscriptions()) === 1);
    cluster.faucet.airdrop(fence.toBase58(), 1n);
    await until("the fence", () => fenced);
    expect(seen).toHaveLength(2);
  });
});
