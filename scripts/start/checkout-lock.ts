import { readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { sleep } from "../../lib/resilience";
import { isPostgresProcess, readPostmasterPid } from "../../platform/postgres/postmaster";
import type { Logger } from "../../platform/log";
import { StartupError } from "../../platform/startup-error";

/**
 * One `npm start` per checkout. `.data/start.json` holds the running one's
 * pid and URL; a second start says where the first runs and exits. A file
 * whose process is gone was left by a start killed without stopping (kill -9):
 * its embedded PostgreSQL may still run, orphaned, and is stopped here (fast
 * shutdown) before a new one starts on the same data directory.
 */
interface LockContent {
  pid: number;
  url?: string;
}

function commandLine(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    try {
      process.kill(pid, 0);
      return ""; // alive, command unknown (no /proc)
    } catch {
      return undefined;
    }
  }
}

function parentPid(pid: number): number | undefined {
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}

export interface CheckoutLock {
  /** True when an earlier start had been killed without stopping (its parts may still be going). */
  earlierStartDied: boolean;
  setUrl(url: string): void;
  release(): void;
}

export async function takeCheckoutLock(dataDir: string, embeddedPgDir: string | undefined, log: Logger): Promise<CheckoutLock> {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, "start.json");
  let earlier: LockContent | undefined;
  try {
    earlier = JSON.parse(readFileSync(file, "utf8")) as LockContent;
  } catch {
    earlier = undefined;
  }
  if (earlier && earlier.pid !== process.pid) {
    const command = commandLine(earlier.pid);
    if (command !== undefined && (command === "" || command.includes("scripts/start"))) {
      throw new StartupError(
        `npm start is already running from this checkout (pid ${earlier.pid}${earlier.url ? `, at ${earlier.url}` : ""})`,
        `use that one, or stop it first (Ctrl-C in its terminal, or kill ${earlier.pid})`,
      );
    }
    log.warn(`an earlier npm start (pid ${earlier.pid}) was killed without stopping: cleaning up after it`);
  }
  if (embeddedPgDir) await stopOrphanedPostgres(embeddedPgDir, log);
  const content: LockContent = { pid: process.pid };
  writeFileSync(file, JSON.stringify(content));
  return {
    earlierStartDied: Boolean(earlier && earlier.pid !== process.pid),
    setUrl(url) {
      content.url = url;
      writeFileSync(file, JSON.stringify(content));
    },
    release() {
      try {
        if ((JSON.parse(readFileSync(file, "utf8")) as LockContent).pid === process.pid) rmSync(file, { force: true });
      } catch {
        // already gone
      }
    },
  };
}

/**
 * A postmaster on this checkout's data directory whose parent is no Node
 * process (its `npm start` was killed: it now hangs off init) is an orphan:
 * stop it with SIGINT (fast shutdown: sessions end, nothing is lost) and wait
 * for it to go. One whose parent lives (a `npm run worker` or `db:migrate`
 * that started it) is left alone and reused.
 */
async function stopOrphanedPostgres(pgDir: string, log: Logger): Promise<void> {
  const postmaster = readPostmasterPid(pgDir);
  if (!postmaster || !isPostgresProcess(postmaster.pid)) return;
  const parent = parentPid(postmaster.pid);
  const parentCommand = parent && parent > 1 ? commandLine(parent) : undefined;
  if (parentCommand && /\bnode\b|tsx/.test(parentCommand)) return;
  log.warn(`stopping the embedded PostgreSQL (pid ${postmaster.pid}) an earlier npm start left running`);
  process.kill(postmaster.pid, "SIGINT");
  const deadline = Date.now() + 20_000;
  while (isPostgresProcess(postmaster.pid)) {
    if (Date.now() > deadline) {
      throw new StartupError(`the embedded PostgreSQL left by an earlier npm start (pid ${postmaster.pid}) does not stop`, `stop it (kill ${postmaster.pid}), then npm start again`);
    }
    await sleep(200);
  }
}
