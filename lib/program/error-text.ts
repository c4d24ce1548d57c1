import { SYSTEM_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from "./constants";
import { ANCHOR_ERRORS, OFFER_PROGRAM_ERRORS } from "./errors";

/**
 * A failed transaction's error in words, for a trader: the offer program's
 * and Anchor's messages by custom code, the token and system programs' common
 * failures, and the runtime's transaction-level errors.
 */

const PROGRAM_MESSAGES = new Map<number, string>(
  [...Object.values(OFFER_PROGRAM_ERRORS), ...Object.values(ANCHOR_ERRORS)].map((e) => [e.code, e.message]),
);

// spl-token's TokenError (the same numbering in Token-2022) for what a trader can cause.
const TOKEN_MESSAGES: Record<number, string> = {
  0: "A token account would fall below its rent-exempt balance",
  1: "Insufficient token balance",
  3: "A token account belongs to a different mint",
  4: "A token account belongs to a different owner",
  17: "A token account is frozen",
};

// The system program's SystemError.
const SYSTEM_MESSAGES: Record<number, string> = {
  0: "An account to be created already exists",
  1: "Not enough SOL for a transfer",
};

const TRANSACTION_MESSAGES: Record<string, string> = {
  BlockhashNotFound: "The transaction's blockhash expired before it landed; try again",
  InsufficientFundsForFee: "Not enough SOL to pay the transaction fee",
  AccountNotFound: "The paying wallet has no SOL on this cluster",
  InsufficientFundsForRent: "Not enough SOL to keep a new account rent-exempt",
  AlreadyProcessed: "This transaction was already processed",
  AccountInUse: "An account is busy in another transaction; try again",
};

const INSTRUCTION_MESSAGES: Record<string, string> = {
  InsufficientFunds: "Insufficient funds",
  InvalidAccountData: "An account holds data of the wrong kind",
  AccountNotRentExempt: "An account would not be rent-exempt",
  MissingRequiredSignature: "A required signature is missing",
  UninitializedAccount: "A token account does not exist yet",
  IncorrectProgramId: "An account belongs to the wrong program",
  ComputationalBudgetExceeded: "The transaction ran out of compute units",
  ProgramFailedToComplete: "The program ran out of compute units or failed to complete",
};

/** Anchor's own log line carries the message for codes this table lacks (e.g. ConstraintTokenOwner). */
const ANCHOR_LOG = /AnchorError .*Error Code: (\w+)\. Error Number: (\d+)\. Error Message: (.*?)\.?$/;

function anchorLogMessage(logs: readonly string[]): string | null {
  for (const line of logs) {
    const m = ANCHOR_LOG.exec(line);
    if (m) return m[3] ?? null;
  }
  return null;
}

export interface ErrorContext {
  /** The simulation's or transaction's log lines. */
  logs?: readonly string[] | null;
  /** The program id of each outer instruction, to read custom codes in the right program's table. */
  instructionPrograms?: readonly string[];
}

function customMessage(code: number, program: string | undefined, logs: readonly string[]): string {
  if (program === TOKEN_PROGRAM_ADDRESS || program === TOKEN_2022_PROGRAM_ADDRESS) return TOKEN_MESSAGES[code] ?? `Token program error ${code}`;
  if (program === SYSTEM_PROGRAM_ADDRESS) return SYSTEM_MESSAGES[code] ?? `System program error ${code}`;
  return anchorLogMessage(logs) ?? PROGRAM_MESSAGES.get(code) ?? `Program error ${code}`;
}

/** `err` is a simulation's or status's `err` (TransactionError JSON). */
export function describeTransactionError(err: unknown, context: ErrorContext = {}): string {
  const logs = context.logs ?? [];
  if (typeof err === "string") return TRANSACTION_MESSAGES[err] ?? err;
  if (err && typeof err === "object") {
    const instructionError = (err as { InstructionError?: unknown }).InstructionError;
    if (Array.isArray(instructionError)) {
      const [index, detail] = instructionError as [number, unknown];
      const program = context.instructionPrograms?.[index];
      if (detail && typeof detail === "object" && "Custom" in detail) return customMessage(Number((detail as { Custom: unknown }).Custom), program, logs);
      if (typeof detail === "string") return INSTRUCTION_MESSAGES[detail] ?? detail;
    }
    const [name] = Object.keys(err);
    if (name && TRANSACTION_MESSAGES[name]) return TRANSACTION_MESSAGES[name];
  }
  return anchorLogMessage(logs) ?? `Transaction failed: ${JSON.stringify(err)}`;
}

/**
 * An error thrown while sending (an RPC's preflight refusal, web3.js's
 * SendTransactionError carrying logs, the wallet's rejection) in words.
 */
export function describeSendError(error: unknown, context: ErrorContext = {}): string {
  const logs = (error as { logs?: unknown })?.logs;
  const message = error instanceof Error ? error.message : String(error);
  const anchored = anchorLogMessage(Array.isArray(logs) ? (logs as string[]) : (context.logs ?? []));
  if (anchored) return anchored;
  if (/blockhash not found/i.test(message)) return TRANSACTION_MESSAGES.BlockhashNotFound as string;
  if (/insufficient (funds|lamports)/i.test(message)) return "Insufficient funds";
  if (/reject|denied|declined|cancel/i.test(message)) return "The wallet declined to sign";
  const custom = /custom program error: 0x([0-9a-f]+)/i.exec(message);
  if (custom) return customMessage(parseInt(custom[1] as string, 16), undefined, []);
  return message;
}
