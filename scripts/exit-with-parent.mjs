// Preloaded (node --import) into the parts `npm start` runs. They are spawned
// with an IPC channel to it; when `npm start` dies without stopping them
// (kill -9, a closed terminal), the channel closes and the part stops itself
// as on SIGTERM (the worker finishes its batch), instead of lingering with a
// port and database connections held.
if (process.channel) {
  process.channel.unref(); // the channel alone must not keep a part alive
  process.once("disconnect", () => process.kill(process.pid, "SIGTERM"));
}
