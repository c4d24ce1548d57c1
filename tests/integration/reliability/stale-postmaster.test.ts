import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { clearStalePostmasterPid, isPostgresProcess } from "../../../platform/postgres/postmaster";

// A postmaster.pid left by a kill -9 names a pid that is dead, or (in a
// container, soon) reused by another process: PostgreSQL would then refuse to
// start ("lock file already exists"). The embedded start removes such a file.
// A full npm start over a stale file and a stale database-url was run by hand;
// the orphaned live postmaster is covered in start-failures.test.ts.

const dir = mkdtempSync(path.join(tmpdir(), "stale-pg-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const pidFile = path.join(dir, "postmaster.pid");
const write = (pid: number) => writeFileSync(pidFile, `${pid}\n${dir}\n1795431000\n45678\n/tmp\n127.0.0.1\n  1234567     98304\nready   \n`);

describe("a stale postmaster.pid", () => {
  it("is removed when its pid is another process (pid reused)", () => {
    write(process.pid); // a live process, but not PostgreSQL
    expect(isPostgresProcess(process.pid)).toBe(false);
    clearStalePostmasterPid(dir);
    expect(existsSync(pidFile)).toBe(false);
  });

  it("is removed when its pid is dead", () => {
    write(2 ** 22 - 1); // above Linux's default pid_max: no such process
    clearStalePostmasterPid(dir);
    expect(existsSync(pidFile)).toBe(false);
  });
});
