import {
  AccountState,
  ExtensionType,
  getDefaultAccountState,
  getNonTransferable,
  getPausableConfig,
  getPermanentDelegate,
  getTransferFeeConfig,
  getTransferHook,
  type Mint,
  type TransferFee,
} from "@solana/spl-token";
import type { PublicKey } from "@solana/web3.js";

// What a buyer should know about a mint before taking it, read from the mint
// account itself: who can still mint or freeze, and the Token-2022 extensions
// that let someone other than the holder tax, move, block or freeze the
// holder's tokens. The extension data is decoded by @solana/spl-token's own
// layouts; only the walk over the TLV entries (to name every extension) is ours.

export type TokenProgramName = "spl-token" | "token-2022";

/** What a mint lets others do to a holder; each code names one fact of `MintSafety`. */
export const MINT_RISKS = [
  "mint_authority", // supply can still grow
  "freeze_authority", // holders' accounts can be frozen
  "transfer_fee", // a fee is (or can be) taken on every transfer
  "permanent_delegate", // someone can move or burn any holder's tokens
  "transfer_hook", // a program runs on every transfer and can refuse it
  "non_transferable", // tokens cannot be transferred at all
  "default_frozen", // new token accounts start frozen
  "pausable", // an authority can pause every transfer
] as const;
export type MintRisk = (typeof MINT_RISKS)[number];

/** A transfer fee as the mint stores it: in effect from `epoch` on. */
export interface TransferFeeRate {
  /** u64 epoch as a decimal string. */
  epoch: string;
  basisPoints: number;
  /** Raw token units, a decimal string. */
  maximumFee: string;
}

export interface MintSafety {
  tokenProgram: TokenProgramName;
  mintAuthority: string | null;
  freezeAuthority: string | null;
  /** Every Token-2022 extension on the mint, by name ("unknown(n)" for a type this code does not know); empty for SPL Token. */
  extensions: string[];
  /** `older` applies before `newer.epoch`, `newer` from it on. */
  transferFee: { authority: string | null; older: TransferFeeRate; newer: TransferFeeRate } | null;
  permanentDelegate: string | null;
  transferHook: { programId: string | null; authority: string | null } | null;
  nonTransferable: boolean;
  defaultFrozen: boolean;
  pausable: { authority: string | null; paused: boolean } | null;
  /** The facts above that let someone other than the holder inflate, tax, move, block or freeze it. */
  risks: MintRisk[];
}

/** Token-2022 writes "none" in an extension as the all-zero key. */
const optionalKey = (key: PublicKey | null | undefined): string | null => (key && !key.toBytes().every((b) => b === 0) ? key.toBase58() : null);

const rate = (fee: TransferFee): TransferFeeRate => ({
  epoch: fee.epoch.toString(),
  basisPoints: fee.transferFeeBasisPoints,
  maximumFee: fee.maximumFee.toString(),
});

const lowerFirst = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);

/**
 * The extension types of a mint's TLV area, in order. The program stops at an
 * Uninitialized (zero) type: the rest of the account is unused space. An entry
 * that runs past the data throws: spl-token's getters would decode it anyway,
 * padding a key with zeros.
 */
export function extensionTypes(tlv: Uint8Array): number[] {
  const view = new DataView(tlv.buffer, tlv.byteOffset, tlv.byteLength);
  const types: number[] = [];
  for (let at = 0; at + 4 <= tlv.length; ) {
    const type = view.getUint16(at, true);
    if (type === ExtensionType.Uninitialized) break;
    const end = at + 4 + view.getUint16(at + 2, true);
    if (end > tlv.length) throw new RangeError(`extension ${type} runs ${end - tlv.length} bytes past the account`);
    types.push(type);
    at = end;
  }
  return types;
}

const extensionName = (type: number): string => {
  const name = (ExtensionType as unknown as Record<number, string | undefined>)[type];
  return name ? lowerFirst(name) : `unknown(${type})`;
};

function risksOf(s: Omit<MintSafety, "risks">): MintRisk[] {
  const fee = s.transferFee;
  const present: Record<MintRisk, boolean> = {
    mint_authority: s.mintAuthority !== null,
    freeze_authority: s.freezeAuthority !== null,
    transfer_fee: fee !== null && (fee.authority !== null || fee.older.basisPoints > 0 || fee.newer.basisPoints > 0),
    permanent_delegate: s.permanentDelegate !== null,
    transfer_hook: s.transferHook !== null && (s.transferHook.programId !== null || s.transferHook.authority !== null),
    non_transferable: s.nonTransferable,
    default_frozen: s.defaultFrozen,
    pausable: s.pausable !== null && (s.pausable.authority !== null || s.pausable.paused),
  };
  return MINT_RISKS.filter((risk) => present[risk]);
}

/** The safety facts of an unpacked mint (spl-token's `unpackMint`) owned by `tokenProgram`; throws on malformed extension data. */
export function mintSafety(mint: Mint, tokenProgram: TokenProgramName): MintSafety {
  const extensions = extensionTypes(mint.tlvData).map(extensionName);
  const fee = getTransferFeeConfig(mint);
  const hook = getTransferHook(mint);
  const pause = getPausableConfig(mint);
  const facts: Omit<MintSafety, "risks"> = {
    tokenProgram,
    mintAuthority: mint.mintAuthority?.toBase58() ?? null,
    freezeAuthority: mint.freezeAuthority?.toBase58() ?? null,
    extensions,
    transferFee: fee ? { authority: optionalKey(fee.transferFeeConfigAuthority), older: rate(fee.olderTransferFee), newer: rate(fee.newerTransferFee) } : null,
    permanentDelegate: optionalKey(getPermanentDelegate(mint)?.delegate),
    transferHook: hook ? { programId: optionalKey(hook.programId), authority: optionalKey(hook.authority) } : null,
    nonTransferable: getNonTransferable(mint) !== null,
    defaultFrozen: getDefaultAccountState(mint)?.state === AccountState.Frozen,
    pausable: pause ? { authority: optionalKey(pause.authority), paused: pause.paused } : null,
  };
  return { ...facts, risks: risksOf(facts) };
}
