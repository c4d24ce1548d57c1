/**
 * A failure a person meets when starting something (a port taken, a database
 * unreachable, a wrong RPC): told as one line naming the cause and the fix,
 * never a stack trace. Throw `StartupError` where the cause is known; `oneLine`
 * describes the system errors people commonly hit; `exitWithOneLine` prints it
 * and exits non-zero.
 */
export class StartupError extends Error {
  override name = "StartupError";
  constructor(
    /** What went wrong, e.g. "port 3000 is already in use". */
    readonly problem: string,
    /** What to do about it, e.g. "stop what uses it or set PORT to a free port". */
    readonly fix: string,
  ) {
    super(`${problem}: ${fix}`);
  }
}

interface SystemError {
  code?: string;
  syscall?: string;
  address?: string;
  port?: number;
  path?: string;
  message?: string;
}

/** One line for any error: the StartupError's own, a known system error's, or the first line of the message. */
export function oneLine(error: unknown): string {
  if (error instanceof StartupError) return error.message;
  // platform/env.ts lists every bad variable on a line of its own: one line here.
  if (error instanceof Error && error.name === "EnvError") {
    return `${error.message.replace(/:?\n\s*/g, "; ").replace(/^Invalid environment; /, "invalid environment: ")}: correct or unset these variables`;
  }
  const e = (error ?? {}) as SystemError;
  const where = e.port !== undefined ? `${e.address ?? "127.0.0.1"}:${e.port}` : (e.address ?? e.path ?? "");
  switch (e.code) {
    case "EADDRINUSE":
      return `${where || "the port"} is already in use: stop what is listening there or choose another port`;
    case "EACCES":
    case "EPERM":
      return `permission denied on ${where || "a file or port"}: run from a directory the current user can write, or fix its permissions`;
    case "ECONNREFUSED":
      return `nothing answers at ${where || "the address given"}: start that service or correct its URL`;
    case "ENOTFOUND":
      return `the host in ${where || "a configured URL"} does not resolve: correct the URL`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0]!.trim() || "unknown error";
}

/** Prints `<program>: <one line>` on stderr and exits with `code`. */
export function exitWithOneLine(program: string, error: unknown, code = 1): never {
  process.stderr.write(`${program}: ${oneLine(error)}\n`);
  process.exit(code);
}
