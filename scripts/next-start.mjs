// `npm run web`: `next start` on PORT (3000), after checking the port is free.
// Next reports a taken port with a stack of its own; this says it in one line
// naming the port and the fix, and exits non-zero. Next then runs in this same
// process, so signals reach it directly.
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const raw = process.env.PORT || "3000";
const port = Number(raw);
if (!Number.isInteger(port) || port <= 0 || port > 65535) {
  process.stderr.write(`web: PORT must be a port number, got "${raw}": set PORT to a free port, e.g. 3000\n`);
  process.exit(2);
}
const free = await new Promise((resolve) => {
  const probe = createServer();
  probe.once("error", () => resolve(false));
  // The wildcard address, as Next binds it: this also finds a server on 127.0.0.1 only.
  probe.listen({ port, exclusive: true }, () => probe.close(() => resolve(true)));
});
if (!free) {
  process.stderr.write(`web: port ${port} (the web server) is already in use: stop what listens there or set PORT to a free port\n`);
  process.exit(1);
}
process.argv = [process.argv[0], path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port), ...process.argv.slice(2)];
await import(pathToFileURL(path.join(root, "node_modules/next/dist/bin/next")).href);
