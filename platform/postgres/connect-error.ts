import { codedError, isDatabaseUnreachable } from "../../lib/resilience";
import { StartupError, oneLine } from "../startup-error";

/** The URL without its password, for messages. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(an unparseable URL)";
  }
}

interface DatabaseFailure {
  code?: string;
  hostname?: string;
  message?: string;
}

/**
 * A failure to reach or use the database named by `variable` (DATABASE_URL),
 * as one line naming the cause and the fix: the causes people meet at start
 * in words of their own (PostgreSQL's codes: 28P01 password refused, 28000 no
 * pg_hba entry, 3D000 no such database, 57P03 still starting, 53300 too many
 * connections), any other sign of an unreachable database
 * (lib/resilience's predicate) as a database that does not answer.
 */
export function databaseStartupError(url: string, failure: unknown, variable = "DATABASE_URL"): StartupError {
  if (failure instanceof StartupError) return failure;
  const error = codedError(failure) ?? failure;
  const shown = redactedUrl(url);
  let where: string;
  let database: string;
  try {
    const parsed = new URL(url);
    where = `${parsed.hostname}:${parsed.port || "5432"}`;
    database = decodeURIComponent(parsed.pathname.slice(1)) || "(default)";
  } catch {
    return new StartupError(`${variable} is not a valid URL`, "set it to postgres://user:password@host:port/database");
  }
  const e = (error ?? {}) as DatabaseFailure;
  const firstLine = (e.message ?? String(error)).split("\n")[0]!.trim();
  switch (e.code) {
    case "ECONNREFUSED":
      return new StartupError(`no PostgreSQL answers at ${where} (${variable}=${shown})`, `start PostgreSQL there or correct ${variable} (unset it for the embedded one)`);
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return new StartupError(`the database host ${e.hostname ?? where} does not resolve (${variable}=${shown})`, `correct the host in ${variable}`);
    case "28P01":
    case "28000":
      return new StartupError(`PostgreSQL at ${where} refused the login: ${firstLine}`, `correct the user and password in ${variable}`);
    case "3D000":
      return new StartupError(`database "${database}" does not exist at ${where}`, `create it (createdb ${database}) or correct the database name in ${variable}`);
    case "42P01":
      return new StartupError(`the database at ${where} has no offer-book tables (${firstLine})`, "run npm run db:migrate first");
    case "57P03":
      return new StartupError(`PostgreSQL at ${where} is starting up or shutting down`, "try again in a few seconds");
    case "53300":
      return new StartupError(`PostgreSQL at ${where} has no free connection`, "raise its max_connections or stop what holds them");
  }
  if (isDatabaseUnreachable(error)) {
    return new StartupError(`the database at ${where} does not answer (${variable}=${shown})`, `check that it runs and that this machine can reach it, or correct ${variable}`);
  }
  return new StartupError(`the database at ${where} failed: ${oneLine(error)}`, `check ${variable} and the server's log`);
}
