import bs58 from "bs58";
import type { LedgerTransaction } from "./ledger-types";
import { accountsForms, jsonParsedForms } from "./render-parsed";

/** Where archived transactions keep their served forms (archive.ts's TransactionArchive). */
export interface ArchivedForms {
  text(id: number, part: "transaction" | "meta"): string;
  bytes(id: number, part: "wire"): Uint8Array;
}

/**
 * getTransaction results and getBlock's transactions as JSON text, in the
 * shape a Solana 2.x node sends (UiTransactionStatusMeta and UiTransaction;
 * jsonParsed and getBlock's `accounts` details in render-parsed.ts). Built by
 * string concatenation: the worker fetches every transaction, so this is the
 * cluster's hot path.
 */

export type TransactionEncoding = "json" | "base64" | "base58";

const q = (s: string) => `"${s}"`;
const list = (items: readonly string[]) => `[${items.join(",")}]`;
const quotedList = (items: readonly string[]) => list(items.map(q));

function innerInstructionsJson(tx: LedgerTransaction): string {
  return list(
    tx.result.innerInstructions.map(
      (group) =>
        `{"index":${group.index},"instructions":${list(
          group.instructions.map(
            (ix) => `{"programIdIndex":${ix.programIdIndex},"accounts":[${ix.accounts.join(",")}],"data":${q(bs58.encode(ix.data))},"stackHeight":${ix.stackHeight}}`,
          ),
        )}}`,
    ),
  );
}

/** `archive`: where an archived transaction's forms are (archive.ts); null renders from its objects. */
export function metaJson(tx: LedgerTransaction, archive: ArchivedForms | null): string {
  if (archive && tx.archived !== null) return archive.text(tx.archived, "meta");
  const r = tx.result;
  const status = r.err === null ? `{"Ok":null}` : `{"Err":${tx.errJson}}`;
  return (
    `{"err":${tx.errJson},"status":${status},"fee":${r.fee},` +
    `"preBalances":[${r.preBalances.join(",")}],"postBalances":[${r.postBalances.join(",")}],` +
    `"innerInstructions":${innerInstructionsJson(tx)},"logMessages":${JSON.stringify(r.logMessages)},` +
    `"preTokenBalances":[],"postTokenBalances":[],"rewards":[],` +
    `"loadedAddresses":{"writable":${quotedList(r.loadedAddresses.writable)},"readonly":${quotedList(r.loadedAddresses.readonly)}},` +
    `"computeUnitsConsumed":${r.computeUnitsConsumed}}`
  );
}

function messageJson(tx: LedgerTransaction): string {
  const m = tx.signed?.message;
  if (!m) throw new Error(`transaction ${tx.signature} has no message`);
  const h = m.header;
  let json =
    `{"header":{"numRequiredSignatures":${h.numRequiredSignatures},"numReadonlySignedAccounts":${h.numReadonlySignedAccounts},"numReadonlyUnsignedAccounts":${h.numReadonlyUnsignedAccounts}},` +
    `"accountKeys":${quotedList(m.staticKeys)},"recentBlockhash":${q(m.recentBlockhash)},` +
    `"instructions":${list(
      m.instructions.map((ix) => `{"programIdIndex":${ix.programIdIndex},"accounts":[${ix.accounts.join(",")}],"data":${q(bs58.encode(ix.data))},"stackHeight":null}`),
    )}`;
  if (m.version === 0) {
    json += `,"addressTableLookups":${list(
      m.addressTableLookups.map(
        (l) => `{"accountKey":${q(l.accountKey)},"writableIndexes":[${l.writableIndexes.join(",")}],"readonlyIndexes":[${l.readonlyIndexes.join(",")}]}`,
      ),
    )}`;
  }
  return `${json}}`;
}

export function transactionJson(tx: LedgerTransaction, encoding: TransactionEncoding, archive: ArchivedForms | null): string {
  if (encoding !== "json") return wireJson(wireOf(tx, archive), encoding);
  if (archive && tx.archived !== null) return archive.text(tx.archived, "transaction");
  const signed = tx.signed;
  if (!signed) throw new Error(`transaction ${tx.signature} was pruned`);
  // The first signature is the transaction's id, already in base58.
  const signatures = signed.signatures.map((s, i) => (i === 0 && tx.signature ? tx.signature : bs58.encode(s)));
  return `{"signatures":${quotedList(signatures)},"message":${messageJson(tx)}}`;
}

function wireOf(tx: LedgerTransaction, archive: ArchivedForms | null): Uint8Array {
  if (archive && tx.archived !== null) return archive.bytes(tx.archived, "wire");
  if (!tx.signed) throw new Error(`transaction ${tx.signature} was pruned`);
  return tx.signed.wire;
}

function wireJson(wire: Uint8Array, encoding: "base64" | "base58"): string {
  if (encoding === "base64") return `[${q(Buffer.from(wire.buffer, wire.byteOffset, wire.byteLength).toString("base64"))},"base64"]`;
  return `[${q(bs58.encode(wire))},"base58"]`;
}

/** How a node can encode a transaction: `binary` is the old name of base58, answered as a bare string. */
export type UiTransactionEncoding = "binary" | "base58" | "base64" | "json" | "jsonParsed";

export interface EncodeOptions {
  /** Whether the request set maxSupportedTransactionVersion: then `version` is given. */
  includeVersion: boolean;
  /** getBlock's `rewards: false` leaves each meta's rewards null. */
  showRewards: boolean;
}

const versionField = (tx: LedgerTransaction, options: EncodeOptions) => (options.includeVersion ? `,"version":${tx.version === 0 ? "0" : `"legacy"`}` : "");

/**
 * A transaction with its meta as getTransaction and getBlock's full details
 * give them (EncodedTransactionWithStatusMeta): its `transaction`, `meta` and
 * `version` fields, without the braces.
 */
export function transactionWithMetaFields(tx: LedgerTransaction, encoding: UiTransactionEncoding, options: EncodeOptions, archive: ArchivedForms): string {
  const meta = metaJson(tx, archive);
  if (encoding === "jsonParsed") {
    const parsed = jsonParsedForms(transactionJson(tx, "json", archive), meta, options.showRewards);
    return `"transaction":${parsed.transaction},"meta":${parsed.meta}${versionField(tx, options)}`;
  }
  const transaction = encoding === "binary" ? q(bs58.encode(wireOf(tx, archive))) : transactionJson(tx, encoding, archive);
  // A transaction's own rewards are always [] here (no vote or staking rewards land in one): `rewards: false` makes them null.
  const shownMeta = options.showRewards ? meta : meta.replace(`"rewards":[]`, `"rewards":null`);
  return `"transaction":${transaction},"meta":${shownMeta}${versionField(tx, options)}`;
}

/** getBlock's `accounts` details for one transaction. */
export function transactionAccountsFields(tx: LedgerTransaction, options: EncodeOptions, archive: ArchivedForms): string {
  const forms = accountsForms(transactionJson(tx, "json", archive), metaJson(tx, archive), options.showRewards);
  return `"transaction":${forms.transaction},"meta":${forms.meta}${versionField(tx, options)}`;
}

/** The result of getTransaction; `version` is present only when the request set maxSupportedTransactionVersion. */
export function transactionResultJson(tx: LedgerTransaction, encoding: UiTransactionEncoding, includeVersion: boolean, archive: ArchivedForms): string {
  return `{"slot":${tx.slot},${transactionWithMetaFields(tx, encoding, { includeVersion, showRewards: true }, archive)},"blockTime":${tx.blockTime}}`;
}
