import { accountAt, ByteReader, type InstructionView, NotParsable, type ParsedInstructionValue, requireAccounts, requireKnownAccounts, utf8 } from "./parse-support";
import { tokenAmountJson } from "./token-json";
import { RawJson } from "./value-json";

/**
 * SPL Token and Token-2022 instructions in a node's jsonParsed form
 * (solana-transaction-status parse_token; program "spl-token" for both): the
 * base instructions, amounts as strings, checked amounts as UiTokenAmount,
 * multisig signers. Token-2022's extension instructions with sub-instructions
 * (transfer fees, confidential transfers, pointers...) are left partially
 * decoded here: nothing the local cluster runs sends them.
 */

const AUTHORITY_TYPES = [
  "mintTokens",
  "freezeAccount",
  "accountOwner",
  "closeAccount",
  "transferFeeConfig",
  "withheldWithdraw",
  "closeMint",
  "interestRate",
  "permanentDelegate",
  "confidentialTransferMint",
  "transferHookProgramId",
  "confidentialTransferFeeConfig",
  "metadataPointer",
  "groupPointer",
  "groupMemberPointer",
  "scaledUiAmount",
  "pause",
] as const;

/** spl-token-2022's ExtensionType, by its u16 value. */
const EXTENSION_TYPES = [
  "uninitialized",
  "transferFeeConfig",
  "transferFeeAmount",
  "mintCloseAuthority",
  "confidentialTransferMint",
  "confidentialTransferAccount",
  "defaultAccountState",
  "immutableOwner",
  "memoTransfer",
  "nonTransferable",
  "interestBearingConfig",
  "cpiGuard",
  "permanentDelegate",
  "nonTransferableAccount",
  "transferHook",
  "transferHookAccount",
  "confidentialTransferFeeConfig",
  "confidentialTransferFeeAmount",
  "metadataPointer",
  "tokenMetadata",
  "groupPointer",
  "tokenGroup",
  "groupMemberPointer",
  "tokenGroupMember",
  "confidentialMintBurn",
  "scaledUiAmount",
  "pausable",
  "pausableAccount",
] as const;

/**
 * A node's parse_signers: the account at `authorityPosition` is the authority
 * when it is the last one; with more after it, it is a multisig and those are its signers.
 */
function withSigners(view: InstructionView, info: Record<string, unknown>, authorityPosition: number, single: string, multisig: string): Record<string, unknown> {
  const authorityIndex = view.accounts[authorityPosition];
  const authority = authorityIndex === undefined ? undefined : view.keys[authorityIndex];
  if (view.accounts.length > authorityPosition + 1) {
    if (authority !== undefined) info[multisig] = authority;
    info.signers = view.accounts.slice(authorityPosition + 1).flatMap((i) => view.keys[i] ?? []);
  } else if (authority !== undefined) {
    info[single] = authority;
  }
  return info;
}

const uiAmount = (amount: bigint, decimals: number) => new RawJson(tokenAmountJson(amount, decimals));

export function parseToken(view: InstructionView): ParsedInstructionValue {
  requireKnownAccounts(view);
  const data = new ByteReader(view.data);
  const tag = data.u8();
  const at = (position: number) => accountAt(view, position);
  const need = (count: number) => requireAccounts(view, count);
  switch (tag) {
    case 0:
    case 20: {
      const decimals = data.u8();
      const mintAuthority = data.pubkey();
      const freezeAuthority = data.optionalPubkey();
      need(tag === 0 ? 2 : 1);
      const info: Record<string, unknown> = { mint: at(0), decimals, mintAuthority };
      if (tag === 0) info.rentSysvar = at(1);
      if (freezeAuthority !== null) info.freezeAuthority = freezeAuthority;
      return { type: tag === 0 ? "initializeMint" : "initializeMint2", info };
    }
    case 1:
      need(4);
      return { type: "initializeAccount", info: { account: at(0), mint: at(1), owner: at(2), rentSysvar: at(3) } };
    case 16:
    case 18: {
      const owner = data.pubkey();
      need(tag === 16 ? 3 : 2);
      const info: Record<string, unknown> = { account: at(0), mint: at(1), owner };
      if (tag === 16) info.rentSysvar = at(2);
      return { type: tag === 16 ? "initializeAccount2" : "initializeAccount3", info };
    }
    case 2:
    case 19: {
      const m = data.u8();
      const first = tag === 2 ? 2 : 1;
      need(first + 1);
      const info: Record<string, unknown> = { multisig: at(0), signers: view.accounts.slice(first).flatMap((i) => view.keys[i] ?? []), m };
      if (tag === 2) info.rentSysvar = at(1);
      return { type: tag === 2 ? "initializeMultisig" : "initializeMultisig2", info };
    }
    case 3:
    case 4:
    case 7:
    case 8: {
      const amount = data.u64().toString();
      need(3);
      if (tag === 3) return { type: "transfer", info: withSigners(view, { source: at(0), destination: at(1), amount }, 2, "authority", "multisigAuthority") };
      if (tag === 4) return { type: "approve", info: withSigners(view, { source: at(0), delegate: at(1), amount }, 2, "owner", "multisigOwner") };
      if (tag === 7) return { type: "mintTo", info: withSigners(view, { mint: at(0), account: at(1), amount }, 2, "mintAuthority", "multisigMintAuthority") };
      return { type: "burn", info: withSigners(view, { account: at(0), mint: at(1), amount }, 2, "authority", "multisigAuthority") };
    }
    case 5:
      need(2);
      return { type: "revoke", info: withSigners(view, { source: at(0) }, 1, "owner", "multisigOwner") };
    case 6: {
      const authorityType = AUTHORITY_TYPES[data.u8()];
      const newAuthority = data.optionalPubkey();
      if (authorityType === undefined) throw new NotParsable("unknown authority type");
      need(2);
      const owned = authorityType === "accountOwner" || authorityType === "closeAccount" ? "account" : "mint";
      return { type: "setAuthority", info: withSigners(view, { [owned]: at(0), authorityType, newAuthority }, 1, "authority", "multisigAuthority") };
    }
    case 9:
      need(3);
      return { type: "closeAccount", info: withSigners(view, { account: at(0), destination: at(1) }, 2, "owner", "multisigOwner") };
    case 10:
    case 11:
      need(3);
      return {
        type: tag === 10 ? "freezeAccount" : "thawAccount",
        info: withSigners(view, { account: at(0), mint: at(1) }, 2, "freezeAuthority", "multisigFreezeAuthority"),
      };
    case 12:
    case 13: {
      const tokenAmount = uiAmount(data.u64(), data.u8());
      need(4);
      if (tag === 12) return { type: "transferChecked", info: withSigners(view, { source: at(0), mint: at(1), destination: at(2), tokenAmount }, 3, "authority", "multisigAuthority") };
      return { type: "approveChecked", info: withSigners(view, { source: at(0), mint: at(1), delegate: at(2), tokenAmount }, 3, "owner", "multisigOwner") };
    }
    case 14:
    case 15: {
      const tokenAmount = uiAmount(data.u64(), data.u8());
      need(3);
      if (tag === 14) return { type: "mintToChecked", info: withSigners(view, { mint: at(0), account: at(1), tokenAmount }, 2, "mintAuthority", "multisigMintAuthority") };
      return { type: "burnChecked", info: withSigners(view, { account: at(0), mint: at(1), tokenAmount }, 2, "authority", "multisigAuthority") };
    }
    case 17:
      need(1);
      return { type: "syncNative", info: { account: at(0) } };
    case 21: {
      const rest = data.rest();
      if (rest.length % 2 !== 0) throw new NotParsable("odd extension type list");
      const types = Array.from({ length: rest.length / 2 }, (_, i) => EXTENSION_TYPES[(rest[2 * i] as number) | ((rest[2 * i + 1] as number) << 8)]);
      if (types.includes(undefined)) throw new NotParsable("unknown extension type");
      need(1);
      const info: Record<string, unknown> = { mint: at(0) };
      if (types.length > 0) info.extensionTypes = types;
      return { type: "getAccountDataSize", info };
    }
    case 22:
      need(1);
      return { type: "initializeImmutableOwner", info: { account: at(0) } };
    case 23: {
      const amount = data.u64().toString();
      need(1);
      return { type: "amountToUiAmount", info: { mint: at(0), amount } };
    }
    case 24: {
      const text = utf8(data.rest());
      need(1);
      return { type: "uiAmountToAmount", info: { mint: at(0), uiAmount: text } };
    }
    case 25: {
      const newAuthority = data.optionalPubkey();
      need(1);
      return { type: "initializeMintCloseAuthority", info: { mint: at(0), newAuthority } };
    }
    case 31:
      need(3);
      return { type: "createNativeMint", info: { payer: at(0), nativeMint: at(1), systemProgram: at(2) } };
    case 32:
      need(1);
      return { type: "initializeNonTransferableMint", info: { mint: at(0) } };
    case 35: {
      const delegate = data.pubkey();
      need(1);
      return { type: "initializePermanentDelegate", info: { mint: at(0), delegate } };
    }
    case 38:
      need(3);
      return { type: "withdrawExcessLamports", info: withSigners(view, { source: at(0), destination: at(1) }, 2, "authority", "multisigAuthority") };
    default:
      throw new NotParsable(`token instruction ${tag} is not parsed here`);
  }
}
