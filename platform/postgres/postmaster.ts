import { readFileSync, rmSync } from "node:fs";
import path from "node:path";

/** The postmaster.pid of a data directory: the server's pid and port, when the file is there. */
export function readPostmasterPid(dataDir: string): { pid: number; port: number } | undefined {
  try {
    const lines = readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n");
    const pid = Number(lines[0]);
    const port = Number(lines[3]);
    return Number.isInteger(pid) && pid > 0 ? { pid, port } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `pid` is a live PostgreSQL server process (not a pid reused by something else). */
export function isPostgresProcess(pid: number): boolean {
  try {
    // A zombie (exited, not yet reaped by a container's init) is gone too.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) return false;
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim().startsWith("postgres");
  } catch {
    try {
      process.kill(pid, 0);
      return true; // no /proc (macOS): alive is the best we know
    } catch {
      return false;
    }
  }
}

/**
 * Removes a postmaster.pid left by a server that is gone (kill -9, a power
 * cut). PostgreSQL removes its own stale file when the pid is dead, but in a
 * container the pid is soon reused by another process, and it then refuses
 * to start ("lock file already exists"). A live postmaster's file is kept.
 */
export function clearStalePostmasterPid(dataDir: string): void {
  const postmaster = readPostmasterPid(dataDir);
  if (postmaster && !isPostgresProcess(postmaster.pid)) rmSync(path.join(dataDir, "postmaster.pid"), { force: true });
}
