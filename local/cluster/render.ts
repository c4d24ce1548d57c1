import bs58 from "bs58";
import type { LedgerTransaction } from "./ledger";

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

export function metaJson(tx: LedgerTransaction): string {
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

function transactionJson(tx: LedgerTransaction, encoding: TransactionEncoding): string {
  const signed = tx.signed;
  if (!signed) throw new Error(`transaction ${tx.signature} was pruned`);
  if (encoding === "base64") return `[${q(Buffer.from(signed.wire).toString("base64"))},"base64"]`;
  if (encoding === "base58") return `[${q(bs58.encode(signed.wire))},"base58"]`;
  // The first signature is the transaction's id, already in base58.
  const signatures = signed.signatures.map((s, i) => (i === 0 && tx.signature ? tx.signature : bs58.encode(s)));
  return `{"signatures":${quotedList(signatures)},"message":${messageJson(tx)}}`;
}

/** The result of getTransaction; `version` is present only when the request set maxSupportedTransactionVersion. */
export function transactionResultJson(tx: LedgerTransaction, encoding: TransactionEncoding, includeVersion: boolean): string {
  const version = tx.signed?.message.version === 0 ? "0" : `"legacy"`;
  return (
    `{"slot":${tx.slot},"transaction":${transactionJson(tx, encoding)},"meta":${metaJson(tx)},` +
    (includeVersion ? `"version":${version},` : "") +
    `"blockTime":${tx.blockTime}}`
  );
}
