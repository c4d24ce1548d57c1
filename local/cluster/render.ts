import bs58 from "bs58";
import type { LedgerTransaction } from "./ledger-types";

/** Where archived transactions keep their served forms (archive.ts's TransactionArchive). */
export interface ArchivedForms {
  text(id: number, part: "transaction" | "meta"): string;
  bytes(id: number, part: "wire"): Uint8Array;
}

/**
 * getTransaction results as JSON text, in the shape a Solana 2.x node sends
 * (UiTransactionStatusMeta and UiTransaction). Built by string concatenation:
 * the worker fetches every transaction, so this is the cluster's hot path.
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
  if (archive && tx.archived !== null) {
    if (encoding === "json") return archive.text(tx.archived, "transaction");
    return wireJson(archive.bytes(tx.archived, "wire"), encoding);
  }
  const signed = tx.signed;
  if (!signed) throw new Error(`transaction ${tx.signature} was pruned`);
  if (encoding !== "json") return wireJson(signed.wire, encoding);
  // The first signature is the transaction's id, already in base58.
  const signatures = signed.signatures.map((s, i) => (i === 0 && tx.signature ? tx.signature : bs58.encode(s)));
  return `{"signatures":${quotedList(signatures)},"message":${messageJson(tx)}}`;
}

function wireJson(wire: Uint8Array, encoding: "base64" | "base58"): string {
  if (encoding === "base64") return `[${q(Buffer.from(wire.buffer, wire.byteOffset, wire.byteLength).toString("base64"))},"base64"]`;
  return `[${q(bs58.encode(wire))},"base58"]`;
}

/** The result of getTransaction; `version` is present only when the request set maxSupportedTransactionVersion. */
export function transactionResultJson(tx: LedgerTransaction, encoding: TransactionEncoding, includeVersion: boolean, archive: ArchivedForms): string {
  const version = tx.version === 0 ? "0" : `"legacy"`;
  return (
    `{"slot":${tx.slot},"transaction":${transactionJson(tx, encoding, archive)},"meta":${metaJson(tx, archive)},` +
    (includeVersion ? `"version":${version},` : "") +
    `"blockTime":${tx.blockTime}}`
  );
}
