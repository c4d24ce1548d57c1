import { type CompiledInstructionJson, parsedInstructionJson } from "./parse-instruction";
import type { AddressTableLookup, MessageHeader } from "./wire";

/**
 * A transaction and its meta in the forms a node builds from the `json` ones:
 * `jsonParsed` (accounts with their roles, instructions parsed where a parser
 * exists, inner instructions likewise, no loadedAddresses in the meta) and
 * getBlock's `accounts` details (signatures and accounts, a short meta). Built
 * from the `json` text because archived transactions keep only that
 * (archive.ts); neither form is on the worker's hot path.
 */

interface InstructionJson extends CompiledInstructionJson {
  stackHeight: number | null;
}

interface TransactionJson {
  signatures: string[];
  message: {
    header: MessageHeader;
    accountKeys: string[];
    recentBlockhash: string;
    instructions: InstructionJson[];
    /** Present for v0 messages only. */
    addressTableLookups?: AddressTableLookup[];
  };
}

interface MetaJson {
  innerInstructions: Array<{ index: number; instructions: InstructionJson[] }>;
  loadedAddresses: { writable: string[]; readonly: string[] };
  [field: string]: unknown;
}

/** Keys a node never reports writable (ReservedAccountKeys: builtin programs and sysvars), whatever the header says. */
const RESERVED_KEYS = new Set([
  "11111111111111111111111111111111",
  "AddressLookupTab1e1111111111111111111111111",
  "BPFLoader1111111111111111111111111111111111",
  "BPFLoader2111111111111111111111111111111111",
  "BPFLoaderUpgradeab1e11111111111111111111111",
  "ComputeBudget111111111111111111111111111111",
  "Config1111111111111111111111111111111111111",
  "Ed25519SigVerify111111111111111111111111111",
  "Feature111111111111111111111111111111111111",
  "LoaderV411111111111111111111111111111111111",
  "NativeLoader1111111111111111111111111111111",
  "KeccakSecp256k11111111111111111111111111111",
  "Secp256r1SigVerify1111111111111111111111111",
  "Stake11111111111111111111111111111111111111",
  "Vote111111111111111111111111111111111111111",
  "ZkE1Gama1Proof11111111111111111111111111111",
  "ZkTokenProof1111111111111111111111111111111",
  "Sysvar1111111111111111111111111111111111111",
  "SysvarC1ock11111111111111111111111111111111",
  "SysvarEpochRewards1111111111111111111111111",
  "SysvarEpochSchedu1e111111111111111111111111",
  "SysvarFees111111111111111111111111111111111",
  "Sysvar1nstructions1111111111111111111111111",
  "SysvarLastRestartS1ot1111111111111111111111",
  "SysvarRecentB1ockHashes11111111111111111111",
  "SysvarRent111111111111111111111111111111111",
  "SysvarRewards111111111111111111111111111111",
  "SysvarS1otHashes111111111111111111111111111",
  "SysvarS1otHistory11111111111111111111111111",
  "SysvarStakeHistory1111111111111111111111111",
]);
const UPGRADEABLE_LOADER = "BPFLoaderUpgradeab1e11111111111111111111111";

function parse(transactionJson: string, metaJson: string): { tx: TransactionJson; meta: MetaJson; keys: string[] } {
  const tx = JSON.parse(transactionJson) as TransactionJson;
  const meta = JSON.parse(metaJson) as MetaJson;
  const keys = [...tx.message.accountKeys, ...meta.loadedAddresses.writable, ...meta.loadedAddresses.readonly];
  return { tx, meta, keys };
}

/**
 * ParsedAccount per key, as parse_legacy_message_accounts and
 * parse_v0_message_accounts give them: writable by the header (loaded
 * writable ones after the static keys), unless reserved or invoked as a
 * program without the upgradeable loader present; signers are the first
 * numRequiredSignatures.
 */
function accountsJson(tx: TransactionJson, keys: readonly string[], loadedWritable: number): string {
  const m = tx.message;
  const { numRequiredSignatures, numReadonlySignedAccounts, numReadonlyUnsignedAccounts } = m.header;
  const staticCount = m.accountKeys.length;
  const invoked = new Set(m.instructions.map((ix) => ix.programIdIndex));
  const loaderPresent = keys.includes(UPGRADEABLE_LOADER);
  const entries = keys.map((pubkey, i) => {
    const byHeader =
      i < numRequiredSignatures ? i < numRequiredSignatures - numReadonlySignedAccounts : i < staticCount ? i < staticCount - numReadonlyUnsignedAccounts : i < staticCount + loadedWritable;
    const writable = byHeader && !RESERVED_KEYS.has(pubkey) && !(invoked.has(i) && !loaderPresent);
    const source = i < staticCount ? "transaction" : "lookupTable";
    return `{"pubkey":"${pubkey}","writable":${writable},"signer":${i < numRequiredSignatures},"source":"${source}"}`;
  });
  return `[${entries.join(",")}]`;
}

function innerInstructionsJson(meta: MetaJson, keys: readonly string[]): string {
  const groups = meta.innerInstructions.map(
    (group) => `{"index":${group.index},"instructions":[${group.instructions.map((ix) => parsedInstructionJson(ix, keys, ix.stackHeight)).join(",")}]}`,
  );
  return `[${groups.join(",")}]`;
}

/** The `transaction` and `meta` of a jsonParsed result, from the `json` ones. */
export function jsonParsedForms(transactionJson: string, metaJson: string, showRewards: boolean): { transaction: string; meta: string } {
  const { tx, meta, keys } = parse(transactionJson, metaJson);
  const m = tx.message;
  let message =
    `{"accountKeys":${accountsJson(tx, keys, meta.loadedAddresses.writable.length)},"recentBlockhash":"${m.recentBlockhash}",` +
    `"instructions":[${m.instructions.map((ix) => parsedInstructionJson(ix, keys, ix.stackHeight)).join(",")}]`;
  if (m.addressTableLookups) message += `,"addressTableLookups":${JSON.stringify(m.addressTableLookups)}`;
  const transaction = `{"signatures":${JSON.stringify(tx.signatures)},"message":${message}}}`;
  const fields = Object.entries(meta).flatMap(([field, value]) => {
    if (field === "loadedAddresses") return [];
    if (field === "innerInstructions") return [`"innerInstructions":${innerInstructionsJson(meta, keys)}`];
    if (field === "rewards" && !showRewards) return [`"rewards":null`];
    return [`${JSON.stringify(field)}:${JSON.stringify(value)}`];
  });
  return { transaction, meta: `{${fields.join(",")}}` };
}

/** getBlock's `accounts` details: the signatures and accounts, and a meta of balances, token balances and status only. */
export function accountsForms(transactionJson: string, metaJson: string, showRewards: boolean): { transaction: string; meta: string } {
  const { tx, meta, keys } = parse(transactionJson, metaJson);
  const transaction = `{"signatures":${JSON.stringify(tx.signatures)},"accountKeys":${accountsJson(tx, keys, meta.loadedAddresses.writable.length)}}`;
  const kept = ["err", "status", "fee", "preBalances", "postBalances", "preTokenBalances", "postTokenBalances", ...(showRewards ? ["rewards"] : [])];
  const fields = kept.filter((field) => field in meta).map((field) => `"${field}":${JSON.stringify(meta[field])}`);
  return { transaction, meta: `{${fields.join(",")}}` };
}
