import { readFileSync } from "node:fs";
import { dataDir } from "../data-dir";

/** Written by whoever starts the embedded cluster, so other processes of this checkout find it. */
export const EMBEDDED_URL_FILE = dataDir("database-url");

export function embeddedDatabaseUrl(): string | undefined {
  try {
    return readFileSync(EMBEDDED_URL_FILE, "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}
