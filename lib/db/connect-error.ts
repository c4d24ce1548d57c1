import { StartupError } from "../startup-error";

/** host:port/database of a connection URL, without its credentials. */
export function describeDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return "DATABASE_URL";
  }
}

/**
 * The failures of a first connection people meet, as one line naming the
 * cause and the fix; null for anything else.
 */
export function databaseStartupError(error: unknown, url: string): StartupError | null {
  const e = (error ?? {}) as { code?: string; message?: string };
  const where = describeDatabaseUrl(url);
  switch (e.code) {
    case "ECONNREFUSED":
      return new StartupError(`nothing accepts connections at ${where} (DATABASE_URL)`, "start PostgreSQL there or correct DATABASE_URL (unset, npm start runs an embedded one)");
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return new StartupError(`the host of DATABASE_URL (${where}) does not resolve`, "correct the host in DATABASE_URL");
    case "CONNECT_TIMEOUT":
    case "ETIMEDOUT":
      return new StartupError(`no answer from PostgreSQL at ${where} (DATABASE_URL) within the connect timeout`, "check that the host is reachable (firewall, VPN) or correct DATABASE_URL");
    case "28P01":
      return new StartupError(`PostgreSQL at ${where} refused the password in DATABASE_URL`, "correct the user and password in DATABASE_URL");
    case "28000":
      return new StartupError(`PostgreSQL at ${where} refused the login: ${e.message}`, "correct the user in DATABASE_URL or allow it in pg_hba.conf");
    case "3D000":
      return new StartupError(`${e.message} at ${where}`, "create it (createdb), correct DATABASE_URL, or run npm run db:migrate against an existing database");
    case "42P01":
      return new StartupError(`the database at ${where} has no offer-book tables (${e.message})`, "run npm run db:migrate first");
    case "57P03":
      return new StartupError(`PostgreSQL at ${where} is still starting up`, "wait a moment and start the worker again");
  }
  return null;
}
