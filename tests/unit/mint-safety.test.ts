import { ACCOUNT_SIZE, AccountLayout } from "@solana/spl-token";
import { Keypair, PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from "../../lib/program/constants";
import { readMintAccount } from "../../lib/tokens/chain-mints";
import { extensionTypes } from "../../lib/tokens/mint-safety";
import { AccountState, mintAccountData } from "../helpers/mint-account";

// A mint account's safety facts, decoded from account data laid out as SPL
// Token and Token-2022 store it (tests/helpers/mint-account.ts builds it with
// @solana/spl-token's layouts and checks its size against the program's
// allocation); one case lays a TransferFeeConfig out byte by byte from the
// published layout, independently of those layouts.

const key = (seed: number) => new PublicKey(Buffer.alloc(32, seed));
const [MINTER, FREEZER, FEE_SETTER, DELEGATE, HOOK, PAUSER] = [1, 2, 3, 4, 5, 6].map(key) as [PublicKey, PublicKey, PublicKey, PublicKey, PublicKey, PublicKey];
const SLOT = 321;

const token = (data: Buffer) => readMintAccount({ owner: TOKEN_PROGRAM_ADDRESS, data }, SLOT);
const token2022 = (data: Buffer) => readMintAccount({ owner: TOKEN_2022_PROGRAM_ADDRESS, data }, SLOT);

const NOTHING = { extensions: [], transferFee: null, permanentDelegate: null, transferHook: null, nonTransferable: false, defaultFrozen: false, pausable: null };

describe("SPL Token mints", () => {
  it("read the mint and freeze authorities, and name them as risks", () => {
    expect(token(mintAccountData({ decimals: 6, mintAuthority: MINTER, freezeAuthority: FREEZER }, "spl-token"))).toEqual({
      decimals: 6,
      safety: {
        tokenProgram: "spl-token",
        mintAuthority: MINTER.toBase58(),
        freezeAuthority: FREEZER.toBase58(),
        ...NOTHING,
        risks: ["mint_authority", "freeze_authority"],
        slot: SLOT,
      },
    });
  });

  it("carry no risk with both authorities revoked", () => {
    expect(token(mintAccountData({ decimals: 9 }, "spl-token"))?.safety).toEqual({
      tokenProgram: "spl-token",
      mintAuthority: null,
      freezeAuthority: null,
      ...NOTHING,
      risks: [],
      slot: SLOT,
    });
  });
});

describe("Token-2022 mints", () => {
  it("without extensions are the bare 82 bytes of an SPL mint", () => {
    expect(token2022(mintAccountData({ decimals: 2, freezeAuthority: FREEZER }))?.safety).toMatchObject({ tokenProgram: "token-2022", extensions: [], risks: ["freeze_authority"] });
  });

  it("decode every extension that matters to a buyer", () => {
    const data = mintAccountData({
      decimals: 6,
      mintCloseAuthority: MINTER,
      transferFee: {
        authority: FEE_SETTER,
        older: { epoch: 500n, basisPoints: 0, maximumFee: 0n },
        newer: { epoch: 700n, basisPoints: 150, maximumFee: 18_446_744_073_709_551_615n },
      },
      permanentDelegate: DELEGATE,
      transferHook: { programId: HOOK, authority: null },
      nonTransferable: true,
      defaultState: AccountState.Frozen,
      pausable: { authority: PAUSER, paused: false },
    });
    expect(token2022(data)).toEqual({
      decimals: 6,
      safety: {
        tokenProgram: "token-2022",
        mintAuthority: null,
        freezeAuthority: null,
        extensions: ["mintCloseAuthority", "transferFeeConfig", "permanentDelegate", "transferHook", "nonTransferable", "defaultAccountState", "pausableConfig"],
        transferFee: {
          authority: FEE_SETTER.toBase58(),
          older: { epoch: "500", basisPoints: 0, maximumFee: "0" },
          newer: { epoch: "700", basisPoints: 150, maximumFee: "18446744073709551615" },
        },
        permanentDelegate: DELEGATE.toBase58(),
        transferHook: { programId: HOOK.toBase58(), authority: null },
        nonTransferable: true,
        defaultFrozen: true,
        pausable: { authority: PAUSER.toBase58(), paused: false },
        risks: ["transfer_fee", "permanent_delegate", "transfer_hook", "non_transferable", "default_frozen", "pausable"],
        slot: SLOT,
      },
    });
  });

  it("read a zero key as none: a fee of zero nobody can change, a hook nobody set, accounts that start initialized are no risk", () => {
    const data = mintAccountData({
      decimals: 6,
      transferFee: { authority: null, older: { epoch: 0n, basisPoints: 0, maximumFee: 0n }, newer: { epoch: 0n, basisPoints: 0, maximumFee: 0n } },
      transferHook: { programId: null, authority: null },
      defaultState: AccountState.Initialized,
      pausable: { authority: null, paused: false },
    });
    const safety = token2022(data)?.safety;
    expect(safety).toMatchObject({ transferFee: { authority: null }, transferHook: { programId: null, authority: null }, defaultFrozen: false, pausable: { authority: null } });
    expect(safety?.risks).toEqual([]);
  });

  it("decode a TransferFeeConfig laid out byte by byte from the published layout", () => {
    // Base mint (82) with decimals 4 and a mint authority, zeros to 165, account type 1 (mint) at 165, then the TLV at 166:
    // type u16 = 1 (TransferFeeConfig), length u16 = 108, then the config authority (32), the withdraw authority (32),
    // withheld amount u64, the older fee {epoch u64, maximum u64, basis points u16}, the newer fee likewise.
    const data = Buffer.alloc(166 + 4 + 108);
    data.writeUInt32LE(1, 0);
    MINTER.toBuffer().copy(data, 4);
    data[44] = 4;
    data[45] = 1;
    data[165] = 1;
    data.writeUInt16LE(1, 166);
    data.writeUInt16LE(108, 168);
    FEE_SETTER.toBuffer().copy(data, 170);
    data.writeBigUInt64LE(77n, 234); // withheld
    data.writeBigUInt64LE(10n, 242); // older epoch
    data.writeBigUInt64LE(1_000n, 250); // older maximum fee
    data.writeUInt16LE(25, 258); // older basis points
    data.writeBigUInt64LE(12n, 260); // newer epoch
    data.writeBigUInt64LE(2_000n, 268); // newer maximum fee
    data.writeUInt16LE(40, 276); // newer basis points
    expect(token2022(data)).toEqual({
      decimals: 4,
      safety: expect.objectContaining({
        mintAuthority: MINTER.toBase58(),
        extensions: ["transferFeeConfig"],
        transferFee: {
          authority: FEE_SETTER.toBase58(),
          older: { epoch: "10", basisPoints: 25, maximumFee: "1000" },
          newer: { epoch: "12", basisPoints: 40, maximumFee: "2000" },
        },
        risks: ["mint_authority", "transfer_fee"],
      }),
    });
  });

  it("name an extension type this code does not know, and stop at the unused space after the last one", () => {
    const unknown = Buffer.from([0x63, 0x00, 0x02, 0x00, 0xaa, 0xbb]); // type 99, 2 bytes
    const data = Buffer.concat([mintAccountData({ decimals: 0, permanentDelegate: DELEGATE }), unknown, Buffer.alloc(40)]);
    expect(token2022(data)?.safety).toMatchObject({ extensions: ["permanentDelegate", "unknown(99)"], risks: ["permanent_delegate"] });
    expect(extensionTypes(Buffer.alloc(12))).toEqual([]);
  });

  it("keep the decimals of a mint whose extension data does not decode, with no safety rather than a wrong one", () => {
    const truncated = mintAccountData({ decimals: 3, permanentDelegate: DELEGATE }).subarray(0, 166 + 4 + 10);
    expect(token2022(Buffer.from(truncated))).toEqual({ decimals: 3, safety: null });
  });
});

describe("accounts that are not mints", () => {
  it("are null: token accounts, extended data under SPL Token, uninitialized mints, other owners, no account", () => {
    const account = Buffer.alloc(ACCOUNT_SIZE);
    AccountLayout.encode(
      {
        mint: MINTER,
        owner: Keypair.generate().publicKey,
        amount: 5n,
        delegateOption: 0,
        delegate: PublicKey.default,
        state: 1,
        isNativeOption: 0,
        isNative: 0n,
        delegatedAmount: 0n,
        closeAuthorityOption: 0,
        closeAuthority: PublicKey.default,
      },
      account,
    );
    const extended = mintAccountData({ decimals: 6, permanentDelegate: DELEGATE });
    const uninitialized = mintAccountData({ decimals: 6 });
    uninitialized[45] = 0;
    expect(token(account)).toBeNull();
    expect(token2022(Buffer.concat([account, Buffer.from([2])]))).toBeNull();
    expect(token(extended)).toBeNull();
    expect(token(uninitialized)).toBeNull();
    expect(readMintAccount({ owner: "11111111111111111111111111111111", data: mintAccountData({ decimals: 6 }) }, SLOT)).toBeNull();
    expect(readMintAccount(null, SLOT)).toBeNull();
  });
});
