import bs58 from "bs58";
import { Keypair, NONCE_ACCOUNT_LENGTH, PublicKey, SystemProgram, SYSVAR_RENT_PUBKEY, TransactionInstruction } from "@solana/web3.js";
import {
  AuthorityType,
  createAmountToUiAmountInstruction,
  createAssociatedTokenAccountIdempotentInstruction,
  createAssociatedTokenAccountInstruction,
  createBurnInstruction,
  createCloseAccountInstruction,
  createInitializeAccount3Instruction,
  createInitializeMintCloseAuthorityInstruction,
  createInitializeMintInstruction,
  createInitializeMultisigInstruction,
  createMintToCheckedInstruction,
  createRecoverNestedInstruction,
  createSetAuthorityInstruction,
  createSyncNativeInstruction,
  createTransferCheckedInstruction,
  createTransferInstruction,
  createUiAmountToAmountInstruction,
  getAssociatedTokenAddressSync,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
} from "@solana/spl-token";
import { describe, expect, it } from "vitest";
import { parsedInstructionJson } from "../../local/cluster/parse-instruction";
import { accountsForms, jsonParsedForms } from "../../local/cluster/render-parsed";

// The local cluster's jsonParsed instruction parsers against what a node's
// (solana-transaction-status parse_system, parse_token,
// parse_associated_token, parse_memo) gives for the same instructions, built
// by the client libraries wallets use.

const key = (seed: number) => Keypair.fromSeed(new Uint8Array(32).fill(seed)).publicKey;
const [a, b, c, d, e, f] = [1, 2, 3, 4, 5, 6].map(key) as [PublicKey, PublicKey, PublicKey, PublicKey, PublicKey, PublicKey];

/** The instruction as the node's parser sees it: keys [program, ...its accounts], the accounts by index. */
function parse(ix: TransactionInstruction, stackHeight: number | null = null): Record<string, unknown> {
  const keys = [ix.programId, ...ix.keys.map((k) => k.pubkey)].map((k) => k.toBase58());
  const text = parsedInstructionJson({ programIdIndex: 0, accounts: ix.keys.map((_, i) => i + 1), data: bs58.encode(ix.data) }, keys, stackHeight);
  return JSON.parse(text) as Record<string, unknown>;
}

const parsedOf = (ix: TransactionInstruction) => (parse(ix) as { parsed: unknown }).parsed;

describe("System program", () => {
  it("renders a transfer exactly as a node does: struct fields in order, info keys sorted, lamports a u64 number", () => {
    const ix = SystemProgram.transfer({ fromPubkey: a, toPubkey: b, lamports: 2n ** 60n + 1n });
    const keys = [ix.programId, a, b].map((k) => k.toBase58());
    expect(parsedInstructionJson({ programIdIndex: 0, accounts: [1, 2], data: bs58.encode(ix.data) }, keys, null)).toBe(
      `{"program":"system","programId":"11111111111111111111111111111111","parsed":{"info":{"destination":"${b.toBase58()}","lamports":1152921504606846977,"source":"${a.toBase58()}"},"type":"transfer"},"stackHeight":null}`,
    );
  });

  it("parses createAccount, createAccountWithSeed, assign, allocate and the nonce instructions", () => {
    expect(parsedOf(SystemProgram.createAccount({ fromPubkey: a, newAccountPubkey: b, lamports: 55, space: 128, programId: c }))).toEqual({
      type: "createAccount",
      info: { source: a.toBase58(), newAccount: b.toBase58(), lamports: 55, space: 128, owner: c.toBase58() },
    });
    const withSeed = SystemProgram.createAccountWithSeed({ fromPubkey: a, newAccountPubkey: b, basePubkey: a, seed: "seed ✓", lamports: 7, space: 9, programId: c });
    expect(parsedOf(withSeed)).toEqual({
      type: "createAccountWithSeed",
      info: { source: a.toBase58(), newAccount: b.toBase58(), base: a.toBase58(), seed: "seed ✓", lamports: 7, space: 9, owner: c.toBase58() },
    });
    expect(parsedOf(SystemProgram.assign({ accountPubkey: a, programId: c }))).toEqual({ type: "assign", info: { account: a.toBase58(), owner: c.toBase58() } });
    expect(parsedOf(SystemProgram.allocate({ accountPubkey: a, space: NONCE_ACCOUNT_LENGTH }))).toEqual({ type: "allocate", info: { account: a.toBase58(), space: NONCE_ACCOUNT_LENGTH } });
    expect(parsedOf(SystemProgram.nonceAdvance({ noncePubkey: a, authorizedPubkey: b }))).toMatchObject({
      type: "advanceNonce",
      info: { nonceAccount: a.toBase58(), nonceAuthority: b.toBase58() },
    });
    expect(parsedOf(SystemProgram.nonceWithdraw({ noncePubkey: a, authorizedPubkey: b, toPubkey: c, lamports: 3 }))).toMatchObject({
      type: "withdrawFromNonce",
      info: { nonceAccount: a.toBase58(), destination: c.toBase58(), rentSysvar: SYSVAR_RENT_PUBKEY.toBase58(), nonceAuthority: b.toBase58(), lamports: 3 },
    });
  });

  it("leaves an instruction with too few accounts or short data partially decoded", () => {
    const transfer = SystemProgram.transfer({ fromPubkey: a, toPubkey: b, lamports: 1 });
    const oneAccount = new TransactionInstruction({ programId: transfer.programId, keys: transfer.keys.slice(0, 1), data: transfer.data });
    expect(parse(oneAccount)).toEqual({ programId: SystemProgram.programId.toBase58(), accounts: [a.toBase58()], data: bs58.encode(transfer.data), stackHeight: null });
    const short = new TransactionInstruction({ programId: transfer.programId, keys: transfer.keys, data: transfer.data.subarray(0, 6) });
    expect(parse(short)).not.toHaveProperty("parsed");
  });
});

describe("SPL Token and Token-2022 (program spl-token for both)", () => {
  it("parses transferChecked with a UiTokenAmount and the authority, at the stack height given", () => {
    const ix = createTransferCheckedInstruction(a, b, c, d, 1_500_000n, 6, [], TOKEN_2022_PROGRAM_ID);
    expect(parse(ix, 2)).toEqual({
      program: "spl-token",
      programId: TOKEN_2022_PROGRAM_ID.toBase58(),
      parsed: {
        type: "transferChecked",
        info: {
          source: a.toBase58(),
          mint: b.toBase58(),
          destination: c.toBase58(),
          authority: d.toBase58(),
          tokenAmount: { amount: "1500000", decimals: 6, uiAmount: 1.5, uiAmountString: "1.5" },
        },
      },
      stackHeight: 2,
    });
  });

  it("names a multisig authority and its signers, as parse_signers does", () => {
    expect(parsedOf(createTransferInstruction(a, b, c, 42n, [d, e], TOKEN_PROGRAM_ID))).toEqual({
      type: "transfer",
      info: { source: a.toBase58(), destination: b.toBase58(), amount: "42", multisigAuthority: c.toBase58(), signers: [d.toBase58(), e.toBase58()] },
    });
  });

  it("parses setAuthority, initializeMint (with and without a freeze authority), mintToChecked, burn, closeAccount, syncNative, initializeAccount3", () => {
    expect(parsedOf(createSetAuthorityInstruction(a, b, AuthorityType.MintTokens, null))).toEqual({
      type: "setAuthority",
      info: { mint: a.toBase58(), authority: b.toBase58(), authorityType: "mintTokens", newAuthority: null },
    });
    expect(parsedOf(createSetAuthorityInstruction(a, b, AuthorityType.AccountOwner, c))).toEqual({
      type: "setAuthority",
      info: { account: a.toBase58(), authority: b.toBase58(), authorityType: "accountOwner", newAuthority: c.toBase58() },
    });
    expect(parsedOf(createInitializeMintInstruction(a, 2, b, c))).toEqual({
      type: "initializeMint",
      info: { mint: a.toBase58(), decimals: 2, mintAuthority: b.toBase58(), freezeAuthority: c.toBase58(), rentSysvar: SYSVAR_RENT_PUBKEY.toBase58() },
    });
    expect(parsedOf(createInitializeMintInstruction(a, 2, b, null))).toEqual({
      type: "initializeMint",
      info: { mint: a.toBase58(), decimals: 2, mintAuthority: b.toBase58(), rentSysvar: SYSVAR_RENT_PUBKEY.toBase58() },
    });
    expect(parsedOf(createMintToCheckedInstruction(a, b, c, 5n, 0))).toEqual({
      type: "mintToChecked",
      info: { mint: a.toBase58(), account: b.toBase58(), mintAuthority: c.toBase58(), tokenAmount: { amount: "5", decimals: 0, uiAmount: 5, uiAmountString: "5" } },
    });
    expect(parsedOf(createBurnInstruction(a, b, c, 9n))).toEqual({ type: "burn", info: { account: a.toBase58(), mint: b.toBase58(), authority: c.toBase58(), amount: "9" } });
    expect(parsedOf(createCloseAccountInstruction(a, b, c))).toEqual({ type: "closeAccount", info: { account: a.toBase58(), destination: b.toBase58(), owner: c.toBase58() } });
    expect(parsedOf(createSyncNativeInstruction(a))).toEqual({ type: "syncNative", info: { account: a.toBase58() } });
    expect(parsedOf(createInitializeAccount3Instruction(a, b, c, TOKEN_2022_PROGRAM_ID))).toEqual({
      type: "initializeAccount3",
      info: { account: a.toBase58(), mint: b.toBase58(), owner: c.toBase58() },
    });
  });

  it("parses initializeMultisig, amountToUiAmount, uiAmountToAmount, initializeMintCloseAuthority and getAccountDataSize with its extension types", () => {
    expect(parsedOf(createInitializeMultisigInstruction(a, [b, c], 2))).toEqual({
      type: "initializeMultisig",
      info: { multisig: a.toBase58(), rentSysvar: SYSVAR_RENT_PUBKEY.toBase58(), signers: [b.toBase58(), c.toBase58()], m: 2 },
    });
    expect(parsedOf(createAmountToUiAmountInstruction(a, 1234n, TOKEN_2022_PROGRAM_ID))).toEqual({ type: "amountToUiAmount", info: { mint: a.toBase58(), amount: "1234" } });
    expect(parsedOf(createUiAmountToAmountInstruction(a, "12.34", TOKEN_2022_PROGRAM_ID))).toEqual({ type: "uiAmountToAmount", info: { mint: a.toBase58(), uiAmount: "12.34" } });
    expect(parsedOf(createInitializeMintCloseAuthorityInstruction(a, b, TOKEN_2022_PROGRAM_ID))).toEqual({
      type: "initializeMintCloseAuthority",
      info: { mint: a.toBase58(), newAuthority: b.toBase58() },
    });
    const dataSize = new TransactionInstruction({ programId: TOKEN_2022_PROGRAM_ID, keys: [{ pubkey: a, isSigner: false, isWritable: false }], data: Buffer.from([21, 7, 0]) });
    expect(parsedOf(dataSize)).toEqual({ type: "getAccountDataSize", info: { mint: a.toBase58(), extensionTypes: ["immutableOwner"] } });
  });

  it("leaves extension instructions it has no parser for, and unknown tags, partially decoded", () => {
    for (const data of [Buffer.from([26, 1]), Buffer.from([200]), Buffer.from([])]) {
      const ix = new TransactionInstruction({ programId: TOKEN_2022_PROGRAM_ID, keys: [{ pubkey: a, isSigner: false, isWritable: true }], data });
      expect(parse(ix)).toEqual({ programId: TOKEN_2022_PROGRAM_ID.toBase58(), accounts: [a.toBase58()], data: bs58.encode(data), stackHeight: null });
    }
  });
});

describe("associated token account program and memo", () => {
  it("parses create, createIdempotent and recoverNested", () => {
    const ata = getAssociatedTokenAddressSync(c, b, true, TOKEN_PROGRAM_ID);
    const info = { source: a.toBase58(), account: ata.toBase58(), wallet: b.toBase58(), mint: c.toBase58(), systemProgram: SystemProgram.programId.toBase58(), tokenProgram: TOKEN_PROGRAM_ID.toBase58() };
    expect(parsedOf(createAssociatedTokenAccountInstruction(a, ata, b, c))).toEqual({ type: "create", info });
    expect(parse(createAssociatedTokenAccountIdempotentInstruction(a, ata, b, c))).toMatchObject({ program: "spl-associated-token-account", parsed: { type: "createIdempotent", info } });
    expect(parsedOf(createRecoverNestedInstruction(a, b, c, d, e, f))).toEqual({
      type: "recoverNested",
      info: {
        nestedSource: a.toBase58(),
        nestedMint: b.toBase58(),
        destination: c.toBase58(),
        nestedOwner: d.toBase58(),
        ownerMint: e.toBase58(),
        wallet: f.toBase58(),
        tokenProgram: TOKEN_PROGRAM_ID.toBase58(),
      },
    });
  });

  it("gives a memo's text as its parsed value (v1 and v3), and leaves one that is not UTF-8 partially decoded", () => {
    for (const program of ["MemoSq4gqABAXKKBgdXzJJcx1W9BqjmbxaPWLGxhzhs", "Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo"]) {
      expect(parse(new TransactionInstruction({ programId: new PublicKey(program), keys: [], data: Buffer.from("🦖 hi") }))).toEqual({
        program: "spl-memo",
        programId: program,
        parsed: "🦖 hi",
        stackHeight: null,
      });
    }
    const bad = new TransactionInstruction({ programId: new PublicKey("MemoSq4gqABAXKKBgdXzJJcx1W9BqjmbxaPWLGxhzhs"), keys: [], data: Buffer.from([0xff]) });
    expect(parse(bad)).not.toHaveProperty("parsed");
  });

  it("has no parser for Compute Budget, as a node has none", () => {
    const ix = new TransactionInstruction({ programId: new PublicKey("ComputeBudget111111111111111111111111111111"), keys: [], data: Buffer.from([2, 64, 13, 3, 0]) });
    expect(parse(ix)).toEqual({ programId: "ComputeBudget111111111111111111111111111111", accounts: [], data: bs58.encode(ix.data), stackHeight: null });
  });
});

describe("a transaction's jsonParsed and accounts forms", () => {
  const header = { numRequiredSignatures: 1, numReadonlySignedAccounts: 0, numReadonlyUnsignedAccounts: 1 };
  // A legacy message whose header marks the invoked program and a sysvar writable: a node reports neither as writable.
  const transaction = JSON.stringify({
    signatures: ["sig"],
    message: {
      header,
      accountKeys: [a.toBase58(), "SysvarRent111111111111111111111111111111111", b.toBase58(), SystemProgram.programId.toBase58()],
      recentBlockhash: "11111111111111111111111111111111",
      instructions: [{ programIdIndex: 2, accounts: [0, 1], data: "", stackHeight: null }],
    },
  });
  const meta = JSON.stringify({
    err: null,
    status: { Ok: null },
    fee: 5000,
    preBalances: [1, 2, 3, 4],
    postBalances: [1, 2, 3, 4],
    innerInstructions: [{ index: 0, instructions: [{ programIdIndex: 3, accounts: [0, 1], data: bs58.encode(SystemProgram.transfer({ fromPubkey: a, toPubkey: b, lamports: 1 }).data), stackHeight: 2 }] }],
    logMessages: [],
    preTokenBalances: [],
    postTokenBalances: [],
    rewards: [],
    loadedAddresses: { writable: [], readonly: [] },
    computeUnitsConsumed: 150,
  });

  it("marks accounts' roles, parses inner instructions and drops loadedAddresses from the meta", () => {
    const forms = jsonParsedForms(transaction, meta, true);
    const tx = JSON.parse(forms.transaction) as { message: { accountKeys: Array<{ writable: boolean; signer: boolean; source: string }>; addressTableLookups?: unknown } };
    expect(tx.message.accountKeys.map((k) => [k.writable, k.signer, k.source])).toEqual([
      [true, true, "transaction"],
      [false, false, "transaction"],
      [false, false, "transaction"],
      [false, false, "transaction"],
    ]);
    expect(tx.message).not.toHaveProperty("addressTableLookups");
    const parsedMeta = JSON.parse(forms.meta) as Record<string, unknown>;
    expect(Object.keys(parsedMeta)).toEqual(["err", "status", "fee", "preBalances", "postBalances", "innerInstructions", "logMessages", "preTokenBalances", "postTokenBalances", "rewards", "computeUnitsConsumed"]);
    expect(parsedMeta.innerInstructions).toEqual([{ index: 0, instructions: [expect.objectContaining({ program: "system", parsed: expect.objectContaining({ type: "transfer" }), stackHeight: 2 })] }]);
    expect(JSON.parse(jsonParsedForms(transaction, meta, false).meta)).toMatchObject({ rewards: null });
  });

  it("gives getBlock's accounts details: signatures, accounts and a short meta", () => {
    const forms = accountsForms(transaction, meta, false);
    expect(Object.keys(JSON.parse(forms.transaction) as object)).toEqual(["signatures", "accountKeys"]);
    expect(Object.keys(JSON.parse(forms.meta) as object)).toEqual(["err", "status", "fee", "preBalances", "postBalances", "preTokenBalances", "postTokenBalances"]);
  });
});
