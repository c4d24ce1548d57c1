import bs58 from "bs58";
import { SYSTEM_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from "../../lib/program";
import { ASSOCIATED_TOKEN_PROGRAM } from "./ata-program";
import { MEMO_PROGRAM } from "./execution-types";
import { accountAt, type InstructionView, NotParsable, type ParsedInstructionValue, requireAccounts, requireKnownAccounts, utf8 } from "./parse-support";
import { parseSystem } from "./parse-system";
import { parseToken } from "./parse-token";
import { valueJson } from "./value-json";

/**
 * One instruction in a node's jsonParsed form (UiInstruction): parsed by the
 * program's parser where a node has one — System, SPL Token and Token-2022,
 * the associated-token-account program, Memo — as
 * {program, programId, parsed, stackHeight}; otherwise, or when the parser
 * rejects it, partially decoded as {programId, accounts, data, stackHeight}.
 * Compute Budget has no parser on a node, nor do the offer-book program and
 * the router.
 */

const MEMO_V1_PROGRAM = "Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo";

type Parser = (view: InstructionView) => ParsedInstructionValue | string;

/** The associated-token-account program's Create, CreateIdempotent and RecoverNested (borsh: one tag byte, no more). */
function parseAssociatedToken(view: InstructionView): ParsedInstructionValue {
  requireKnownAccounts(view);
  if (view.data.length > 1) throw new NotParsable("trailing instruction data");
  const tag = view.data[0] ?? 0;
  const at = (position: number) => accountAt(view, position);
  if (tag === 0 || tag === 1) {
    requireAccounts(view, 6);
    return {
      type: tag === 0 ? "create" : "createIdempotent",
      info: { source: at(0), account: at(1), wallet: at(2), mint: at(3), systemProgram: at(4), tokenProgram: at(5) },
    };
  }
  if (tag === 2) {
    requireAccounts(view, 7);
    return {
      type: "recoverNested",
      info: { nestedSource: at(0), nestedMint: at(1), destination: at(2), nestedOwner: at(3), ownerMint: at(4), wallet: at(5), tokenProgram: at(6) },
    };
  }
  throw new NotParsable(`unknown associated token instruction ${tag}`);
}

/** A memo's parsed form is its text. */
const parseMemo: Parser = (view) => utf8(view.data);

/** The program names a node gives (its ParsableProgram in kebab case) and their parsers. */
const PARSERS = new Map<string, { program: string; parse: Parser }>([
  [SYSTEM_PROGRAM_ADDRESS, { program: "system", parse: parseSystem }],
  [TOKEN_PROGRAM_ADDRESS, { program: "spl-token", parse: parseToken }],
  [TOKEN_2022_PROGRAM_ADDRESS, { program: "spl-token", parse: parseToken }],
  [ASSOCIATED_TOKEN_PROGRAM, { program: "spl-associated-token-account", parse: parseAssociatedToken }],
  [MEMO_PROGRAM, { program: "spl-memo", parse: parseMemo }],
  [MEMO_V1_PROGRAM, { program: "spl-memo", parse: parseMemo }],
]);

export interface CompiledInstructionJson {
  programIdIndex: number;
  accounts: number[];
  /** base58, as the `json` encoding gives it. */
  data: string;
}

/** The instruction's UiInstruction JSON; `keys` are the transaction's account keys, loaded ones included. */
export function parsedInstructionJson(ix: CompiledInstructionJson, keys: readonly string[], stackHeight: number | null): string {
  const programId = keys[ix.programIdIndex];
  if (programId === undefined) throw new Error(`program id index ${ix.programIdIndex} is past the account keys`);
  const parser = PARSERS.get(programId);
  const height = stackHeight === null ? "null" : String(stackHeight);
  if (parser) {
    try {
      const parsed = parser.parse({ accounts: ix.accounts, keys, data: bs58.decode(ix.data) });
      return `{"program":"${parser.program}","programId":"${programId}","parsed":${valueJson(parsed)},"stackHeight":${height}}`;
    } catch (error) {
      if (!(error instanceof NotParsable)) throw error;
    }
  }
  const accounts = ix.accounts.map((i) => keys[i]);
  return `{"programId":"${programId}","accounts":${JSON.stringify(accounts)},"data":${JSON.stringify(ix.data)},"stackHeight":${height}}`;
}
