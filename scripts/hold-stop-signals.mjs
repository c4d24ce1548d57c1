// Imported first by the launchers of programs that stop on SIGINT and SIGTERM
// (worker.mjs, web.mjs). It holds those signals while the program is still
// being bundled and loaded, before it has listened for them: Node's default
// would end the process at once, so a Ctrl-C in the first second after a
// start killed the worker before it could say "stopped". Each held signal is
// delivered to the program's first listener for it, as soon as the program
// adds one, and the program's own handling applies. A program that never
// listens would never stop on them: only for those that do.
const STOP_SIGNALS = ["SIGINT", "SIGTERM"];
const held = new Map();
const handed = new Set();
const hold = (signal) => {
  if (!handed.has(signal)) held.set(signal, (held.get(signal) ?? 0) + 1);
};

function handOver(event, listener) {
  if (!STOP_SIGNALS.includes(event) || listener === hold || handed.has(event)) return;
  handed.add(event);
  if (handed.size === STOP_SIGNALS.length) process.removeListener("newListener", handOver);
  // "newListener" comes before the listener is added. The hold goes only
  // after it is: with no listener left for a moment, Node would close the
  // signal's watcher and lose a signal already caught but not yet dispatched.
  setImmediate(() => {
    for (let i = held.get(event) ?? 0; i > 0; i--) process.emit(event, event);
    held.delete(event);
    process.removeListener(event, hold);
  });
}

for (const signal of STOP_SIGNALS) process.on(signal, hold);
process.on("newListener", handOver);
