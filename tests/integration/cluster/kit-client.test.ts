import {
  AccountRole,
  address,
  type Address,
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  devnet,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  type Instruction,
  type KeyPairSigner,
  lamports,
  pipe,
  type RpcDevnet,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signature,
  signTransactionMessageWithSigners,
  type SolanaRpcApiDevnet,
} from "@solana/kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalCluster, startLocalCluster } from "../../../local/cluster/index";
import { ata, JUP } from "./wallet-helpers";
import { until } from "../../helpers/until";

// The local cluster driven by @solana/kit, a second client beside web3.js:
// every call its RPC offers that the cluster serves, with the shapes its
// types promise (numbers as bigint once its transformers have run), a signed
// transaction simulated and sent, getTransaction in three encodings,
// getBlock, and accountNotifications hearing a real change of an account.

const GENESIS = Date.UTC(2025, 0, 1);
const SYSTEM = address("11111111111111111111111111111111");
const MEMO = address("MemoSq4gqABAXKKBgdXzJJcx1W9BqjmbxaPWLGxhzhs");
const JUP_MINT = address(JUP.toBase58());
const BIG = expect.any(BigInt) as unknown;
const TEXT = expect.any(String) as unknown;

let cluster: LocalCluster;
/** Typed as a test cluster's (devnet's) RPC: the one whose API has requestAirdrop, as the local cluster's has. */
let rpc: RpcDevnet<SolanaRpcApiDevnet>;
let payer: KeyPairSigner;

beforeAll(async () => {
  cluster = await startLocalCluster({ seed: "kit-client", history: 400, genesisUnixMs: GENESIS });
  rpc = createSolanaRpc(devnet(cluster.url));
  payer = await generateKeyPairSigner();
  const funded = await rpc.requestAirdrop(payer.address, lamports(10_000_000_000n), { commitment: "confirmed" }).send();
  await until("the airdrop confirmed", async () => (await rpc.getSignatureStatuses([funded]).send()).value[0]?.confirmationStatus === "confirmed");
});

afterAll(async () => {
  await cluster?.stop();
});

function transferInstruction(from: Address, to: Address, amount: bigint): Instruction {
  const data = new Uint8Array(12);
  const view = new DataView(data.buffer);
  view.setUint32(0, 2, true);
  view.setBigUint64(4, amount, true);
  return { programAddress: SYSTEM, accounts: [{ address: from, role: AccountRole.WRITABLE_SIGNER }, { address: to, role: AccountRole.WRITABLE }], data };
}

/** A v0 transaction of a memo and a System transfer, signed by `payer`, as base64 wire bytes. */
async function signedTransaction(memo: string, to: Address, amount: bigint) {
  const { value: latest } = await rpc.getLatestBlockhash().send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
    (m) => appendTransactionMessageInstructions([{ programAddress: MEMO, data: new TextEncoder().encode(memo) }, transferInstruction(payer.address, to, amount)], m),
  );
  const signed = await signTransactionMessageWithSigners(message);
  return { wire: getBase64EncodedWireTransaction(signed), signature: getSignatureFromTransaction(signed) };
}

const subscriptionCount = async () => ((await (await fetch(`${cluster.url}/_admin/websocket`)).json()) as { subscriptions: number }).subscriptions;

describe("the calls @solana/kit offers that the cluster serves", () => {
  it("answers the account, cluster and history calls in the shapes kit's types promise", async () => {
    const context = { apiVersion: TEXT, slot: BIG };
    expect(await rpc.getBalance(payer.address).send()).toEqual({ context, value: 10_000_000_000n });
    expect(await rpc.getAccountInfo(payer.address, { encoding: "base64" }).send()).toEqual({
      context,
      value: { data: ["", "base64"], executable: false, lamports: 10_000_000_000n, owner: SYSTEM, rentEpoch: BIG, space: 0n },
    });
    const [missing, mint] = (await rpc.getMultipleAccounts([(await generateKeyPairSigner()).address, JUP_MINT], { encoding: "jsonParsed" }).send()).value;
    expect(missing).toBeNull();
    expect(mint).toMatchObject({ data: { program: "spl-token", parsed: { type: "mint", info: { decimals: 6 } }, space: 82n } });
    const latest = await rpc.getLatestBlockhash().send();
    expect(latest).toEqual({ context, value: { blockhash: TEXT, lastValidBlockHeight: BIG } });
    expect(await rpc.isBlockhashValid(latest.value.blockhash).send()).toEqual({ context, value: true });
    const [fee] = await rpc.getRecentPrioritizationFees().send();
    expect(fee).toEqual({ slot: BIG, prioritizationFee: BIG });
    expect(typeof (await rpc.getSlot().send())).toBe("bigint");
    expect(typeof (await rpc.getBlockHeight().send())).toBe("bigint");
    expect(await rpc.getEpochInfo().send()).toEqual({ absoluteSlot: BIG, blockHeight: BIG, epoch: BIG, slotIndex: BIG, slotsInEpoch: BIG, transactionCount: BIG });
    // feature-set is a u32, which kit leaves a number.
    expect(await rpc.getVersion().send()).toEqual({ "feature-set": expect.any(Number) as unknown, "solana-core": TEXT });
    expect(await rpc.getHealth().send()).toBe("ok");
    expect(await rpc.getGenesisHash().send()).toBe(cluster.ledger.genesisHash);
    expect(typeof (await rpc.getMinimumBalanceForRentExemption(165n).send())).toBe("bigint");
    expect(typeof (await rpc.getFirstAvailableBlock().send())).toBe("bigint");
    expect(typeof (await rpc.minimumLedgerSlot().send())).toBe("bigint");
    expect(typeof (await rpc.getTransactionCount().send())).toBe("bigint");

    const program = address(cluster.programId);
    const [newest] = await rpc.getSignaturesForAddress(program, { limit: 1 }).send();
    expect(newest).toEqual({ signature: TEXT, slot: BIG, err: null, memo: null, blockTime: BIG, confirmationStatus: expect.stringMatching(/^(confirmed|finalized)$/) as unknown });
    const statuses = await rpc.getSignatureStatuses([newest!.signature]).send();
    expect(statuses.value[0]).toMatchObject({ slot: newest!.slot, err: null });
    expect(typeof (await rpc.getBlockTime(newest!.slot).send())).toBe("bigint");
    const offers = await rpc.getProgramAccounts(program, { encoding: "base64", dataSlice: { offset: 0, length: 8 } }).send();
    expect(offers.length).toBeGreaterThan(0);
    expect(offers[0]).toEqual({ pubkey: TEXT, account: { data: [TEXT, "base64"], executable: false, lamports: BIG, owner: program, rentEpoch: BIG, space: BIG } });
  });

  it("answers the token calls for a wallet's associated account", async () => {
    const owner = (await generateKeyPairSigner()).address;
    cluster.faucet.tokenAirdrop(owner, JUP_MINT, 3_000_000n);
    const account = address(ata(cluster.world.publicKey(owner), JUP).toBase58());
    expect((await rpc.getTokenAccountBalance(account).send()).value).toEqual({ amount: "3000000", decimals: 6, uiAmount: 3, uiAmountString: "3" });
    const owned = await rpc.getTokenAccountsByOwner(owner, { mint: JUP_MINT }, { encoding: "jsonParsed" }).send();
    expect(owned.value).toHaveLength(1);
    expect(owned.value[0]!.account.data).toMatchObject({ program: "spl-token", parsed: { type: "account", info: { owner, mint: JUP_MINT, tokenAmount: { amount: "3000000" } } } });
    expect((await rpc.getTokenSupply(JUP_MINT).send()).value).toMatchObject({ decimals: 6, amount: TEXT });
  });

  it("simulates and sends a signed transaction, then serves it in json, base64 and jsonParsed", async () => {
    const to = (await generateKeyPairSigner()).address;
    const { wire, signature: sent } = await signedTransaction("kit was here", to, 1_000_000n);
    const simulation = await rpc.simulateTransaction(wire, { encoding: "base64", sigVerify: true }).send();
    expect(simulation.value).toMatchObject({ err: null, logs: expect.arrayContaining([expect.stringContaining("Memo (len 12)")]) as unknown, unitsConsumed: BIG });
    expect(await rpc.sendTransaction(wire, { encoding: "base64" }).send()).toBe(sent);
    await until("the transaction confirmed", async () => (await rpc.getSignatureStatuses([sent]).send()).value[0]?.confirmationStatus === "confirmed");

    const json = await rpc.getTransaction(sent, { encoding: "json", maxSupportedTransactionVersion: 0 }).send();
    expect(json).toMatchObject({ slot: BIG, blockTime: BIG, version: 0, meta: { err: null, fee: BIG, loadedAddresses: { writable: [], readonly: [] } } });
    const keys = json!.transaction.message.accountKeys;
    expect([...keys].sort()).toEqual([payer.address, to, MEMO, SYSTEM].sort());
    expect((json!.transaction.message as { addressTableLookups?: unknown }).addressTableLookups).toEqual([]);

    const base64 = await rpc.getTransaction(sent, { encoding: "base64", maxSupportedTransactionVersion: 0 }).send();
    expect(base64!.transaction).toEqual([wire, "base64"]);

    const parsed = await rpc.getTransaction(sent, { encoding: "jsonParsed", maxSupportedTransactionVersion: 0 }).send();
    // The accounts in the message's order, with their roles.
    const roles = { [payer.address]: [true, true], [to]: [false, true], [MEMO]: [false, false], [SYSTEM]: [false, false] };
    expect(parsed!.transaction.message.accountKeys).toEqual(keys.map((pubkey) => ({ pubkey, signer: roles[pubkey]![0], writable: roles[pubkey]![1], source: "transaction" })));
    // stackHeight is null on outer instructions, as a 2.2 node (the version the cluster reports) sends them.
    expect(parsed!.transaction.message.instructions).toEqual([
      { program: "spl-memo", programId: MEMO, parsed: "kit was here", stackHeight: null },
      { program: "system", programId: SYSTEM, parsed: { type: "transfer", info: { source: payer.address, destination: to, lamports: 1_000_000n } }, stackHeight: null },
    ]);
    expect(parsed!.meta).not.toHaveProperty("loadedAddresses");
    expect(parsed!.meta).toMatchObject({ err: null, status: { Ok: null }, innerInstructions: [], rewards: [] });
  });

  it("serves getBlock with its transactions, signatures or nothing, and refuses a slot not yet final", async () => {
    const { wire, signature: sent } = await signedTransaction("block", (await generateKeyPairSigner()).address, 1n);
    await rpc.sendTransaction(wire, { encoding: "base64" }).send();
    const slot = await until("the transaction landed", async () => (await rpc.getSignatureStatuses([sent]).send()).value[0]?.slot);
    const full = await rpc.getBlock(slot, { commitment: "confirmed", maxSupportedTransactionVersion: 0, encoding: "jsonParsed" }).send();
    expect(full).toMatchObject({ blockhash: TEXT, previousBlockhash: TEXT, parentSlot: BIG, blockHeight: BIG, blockTime: BIG, rewards: [] });
    const ours = full!.transactions.find((t) => t.transaction.signatures[0] === sent)!;
    expect(ours.version).toBe(0);
    expect(ours.transaction.message.instructions[0]).toMatchObject({ program: "spl-memo", parsed: "block" });
    const signatures = await rpc.getBlock(slot, { commitment: "confirmed", transactionDetails: "signatures", rewards: false }).send();
    expect(signatures!.signatures).toContain(signature(sent));
    expect(signatures).not.toHaveProperty("rewards");
    const accounts = await rpc.getBlock(slot, { commitment: "confirmed", transactionDetails: "accounts", maxSupportedTransactionVersion: 0 }).send();
    expect(accounts!.transactions[0]).toMatchObject({ transaction: { signatures: [TEXT], accountKeys: expect.any(Array) as unknown }, meta: { fee: BIG } });
    const none = await rpc.getBlock(slot, { commitment: "confirmed", transactionDetails: "none", rewards: false }).send();
    expect(Object.keys(none!).sort()).toEqual(["blockHeight", "blockTime", "blockhash", "parentSlot", "previousBlockhash"]);
    await expect(rpc.getBlock(slot, { commitment: "finalized", transactionDetails: "none" }).send()).rejects.toThrow(/Block not available for slot/);
  });
});

describe("accountNotifications through kit's subscriptions", () => {
  it("hears a real change of an account, in base64 at confirmed and in jsonParsed at finalized, and stops when aborted", async () => {
    const subscriptions = createSolanaRpcSubscriptions(cluster.wsUrl);
    const watched = (await generateKeyPairSigner()).address;
    const abort = new AbortController();
    const confirmed = await subscriptions.accountNotifications(watched, { commitment: "confirmed", encoding: "base64" }).subscribe({ abortSignal: abort.signal });
    const heard: Array<{ slot: bigint; lamports: bigint; owner: string; data: unknown }> = [];
    void (async () => {
      for await (const n of confirmed) heard.push({ slot: n.context.slot, ...n.value });
    })().catch(() => undefined);

    // A token account, watched at finalized in jsonParsed: created now, heard only once final.
    const owner = (await generateKeyPairSigner()).address;
    const tokenAccount = address(ata(cluster.world.publicKey(owner), JUP).toBase58());
    const finalized = await subscriptions.accountNotifications(tokenAccount, { commitment: "finalized", encoding: "jsonParsed" }).subscribe({ abortSignal: abort.signal });
    const heardFinal: Array<{ slot: bigint; data: unknown }> = [];
    void (async () => {
      for await (const n of finalized) heardFinal.push({ slot: n.context.slot, data: n.value.data });
    })().catch(() => undefined);
    await until("both subscriptions", async () => (await subscriptionCount()) === 2);

    const { wire, signature: sent } = await signedTransaction("pay", watched, 2_000_000n);
    await rpc.sendTransaction(wire, { encoding: "base64" }).send();
    const airdrop = cluster.faucet.tokenAirdrop(owner, JUP_MINT, 7_000_000n);
    await until("the payment heard", () => heard.length === 1);
    expect(heard[0]).toMatchObject({ slot: BigInt(cluster.ledger.bySignatureAvailable(sent)!.slot), lamports: 2_000_000n, owner: SYSTEM, data: ["", "base64"] });
    expect(heardFinal).toEqual([]);

    cluster.advanceSlots(40);
    await until("the token account heard at finalized", () => heardFinal.length === 1);
    expect(heardFinal[0]!.slot).toBe(BigInt(cluster.ledger.bySignatureAvailable(airdrop)!.slot));
    expect(heardFinal[0]!.data).toMatchObject({ program: "spl-token", parsed: { type: "account", info: { owner, tokenAmount: { amount: "7000000", decimals: 6 } } } });

    abort.abort();
    await until("the subscriptions ended", async () => (await subscriptionCount()) === 0);
  });
});
