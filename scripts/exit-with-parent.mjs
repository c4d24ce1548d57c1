// Preloaded (node --import) into the parts `npm start` runs. When `npm start`
// dies without stopping them (kill -9, a closed terminal), the part is
// re-parented (its ppid changes), notices within a second and stops itself as
// on SIGTERM (the worker finishes its batch), instead of lingering with a port
// and database connections held. The signal is repeated every 5 s: one that
// arrives while the part is still loading, before its own handler is set, can
// be lost, and a second SIGTERM makes the worker abandon a batch it cannot
// finish (its RPC, the local cluster, died with `npm start`). Polling the
// parent pid works where an IPC channel's close proved unreliable during the
// worker's own start.
const parent = process.ppid;
// Last resort after 30 s: a part that does not stop (the worker retrying an RPC
// that died with npm start) is killed; the worker's writes are transactions
// with their checkpoint, so a kill loses nothing.
let orphanedAt = 0;
let signalledAt = 0;
setInterval(() => {
  if (process.ppid === parent) return;
  const now = Date.now();
  orphanedAt ||= now;
  if (now - orphanedAt > 30_000) process.kill(process.pid, "SIGKILL");
  if (signalledAt && now - signalledAt < 5_000) return;
  signalledAt = now;
  process.kill(process.pid, "SIGTERM");
}, 1_000).unref(); // the watch alone must not keep a part alive
