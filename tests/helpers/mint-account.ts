import {
  ACCOUNT_SIZE,
  AccountState,
  DefaultAccountStateLayout,
  ExtensionType,
  getMintLen,
  MINT_SIZE,
  MintCloseAuthorityLayout,
  MintLayout,
  PausableConfigLayout,
  PermanentDelegateLayout,
  TransferFeeConfigLayout,
  TransferHookLayout,
} from "@solana/spl-token";
import { PublicKey } from "@solana/web3.js";

// Mint account data as SPL Token and Token-2022 store it, built with
// @solana/spl-token's own layouts: the 82-byte base mint, and for Token-2022
// with extensions, padding to the token-account size (165), the account-type
// byte (1 = mint) and one TLV entry (u16 type, u16 length, value) per extension.

export interface FeeRate {
  epoch: bigint;
  basisPoints: number;
  maximumFee: bigint;
}

export interface MintSpec {
  decimals: number;
  mintAuthority?: PublicKey | null;
  freezeAuthority?: PublicKey | null;
  supply?: bigint;
  /** Token-2022 extensions, written in this order. */
  mintCloseAuthority?: PublicKey;
  transferFee?: { authority: PublicKey | null; withdrawAuthority?: PublicKey; older: FeeRate; newer: FeeRate };
  permanentDelegate?: PublicKey;
  transferHook?: { programId: PublicKey | null; authority: PublicKey | null };
  nonTransferable?: boolean;
  defaultState?: AccountState;
  pausable?: { authority: PublicKey | null; paused: boolean };
}

/** Token-2022 writes "none" in an extension as the all-zero key. */
const orZero = (key: PublicKey | null | undefined) => key ?? PublicKey.default;

function entry<T>(type: ExtensionType, layout: { span: number; encode(value: T, b: Buffer): number }, value: T): Buffer {
  const out = Buffer.alloc(4 + layout.span);
  out.writeUInt16LE(type, 0);
  out.writeUInt16LE(layout.span, 2);
  layout.encode(value, out.subarray(4));
  return out;
}

function extensions(spec: MintSpec): Array<{ type: ExtensionType; data: Buffer }> {
  const out: Array<{ type: ExtensionType; data: Buffer }> = [];
  const add = (type: ExtensionType, data: Buffer) => out.push({ type, data });
  if (spec.mintCloseAuthority) add(ExtensionType.MintCloseAuthority, entry(ExtensionType.MintCloseAuthority, MintCloseAuthorityLayout, { closeAuthority: spec.mintCloseAuthority }));
  if (spec.transferFee) {
    const fee = spec.transferFee;
    const rate = (r: FeeRate) => ({ epoch: r.epoch, maximumFee: r.maximumFee, transferFeeBasisPoints: r.basisPoints });
    add(
      ExtensionType.TransferFeeConfig,
      entry(ExtensionType.TransferFeeConfig, TransferFeeConfigLayout, {
        transferFeeConfigAuthority: orZero(fee.authority),
        withdrawWithheldAuthority: orZero(fee.withdrawAuthority),
        withheldAmount: 0n,
        olderTransferFee: rate(fee.older),
        newerTransferFee: rate(fee.newer),
      }),
    );
  }
  if (spec.permanentDelegate) add(ExtensionType.PermanentDelegate, entry(ExtensionType.PermanentDelegate, PermanentDelegateLayout, { delegate: spec.permanentDelegate }));
  if (spec.transferHook) {
    add(ExtensionType.TransferHook, entry(ExtensionType.TransferHook, TransferHookLayout, { authority: orZero(spec.transferHook.authority), programId: orZero(spec.transferHook.programId) }));
  }
  if (spec.nonTransferable) {
    const empty = Buffer.alloc(4);
    empty.writeUInt16LE(ExtensionType.NonTransferable, 0);
    add(ExtensionType.NonTransferable, empty);
  }
  if (spec.defaultState !== undefined) add(ExtensionType.DefaultAccountState, entry(ExtensionType.DefaultAccountState, DefaultAccountStateLayout, { state: spec.defaultState }));
  if (spec.pausable) add(ExtensionType.PausableConfig, entry(ExtensionType.PausableConfig, PausableConfigLayout, { authority: orZero(spec.pausable.authority), paused: spec.pausable.paused }));
  return out;
}

/** The account data of a mint; `program` "token-2022" with no extension is the bare 82 bytes, as the program allocates it. */
export function mintAccountData(spec: MintSpec, program: "spl-token" | "token-2022" = "token-2022"): Buffer {
  const base = Buffer.alloc(MINT_SIZE);
  MintLayout.encode(
    {
      mintAuthorityOption: spec.mintAuthority ? 1 : 0,
      mintAuthority: orZero(spec.mintAuthority),
      supply: spec.supply ?? 1_000_000_000n,
      decimals: spec.decimals,
      isInitialized: true,
      freezeAuthorityOption: spec.freezeAuthority ? 1 : 0,
      freezeAuthority: orZero(spec.freezeAuthority),
    },
    base,
  );
  const entries = program === "token-2022" ? extensions(spec) : [];
  if (entries.length === 0) return base;
  const data = Buffer.concat([base, Buffer.alloc(ACCOUNT_SIZE - MINT_SIZE), Buffer.from([1]), ...entries.map((e) => e.data)]);
  // The size the program allocates for these extensions: a check that the entries are laid out as it lays them.
  const expected = getMintLen(entries.map((e) => e.type));
  if (data.length !== expected) throw new Error(`mint of ${data.length} bytes, the program allocates ${expected}`);
  return data;
}

export { AccountState };
