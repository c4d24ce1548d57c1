import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { Socket } from "node:net";
import { portOutsideEphemeralRange } from "../helpers/reserved-port";

// The suites that share budgets and the token cache between instances need a
// Redis. The machine's at 127.0.0.1:6379 when it answers (or TEST_REDIS_URL);
// otherwise one of their own from Debian's redis-server, in memory only, for
// this run. The tests read TEST_REDIS_URL (tests/integration/tokens/helpers/service.ts).

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether a Redis answers PING on this port within a short wait. */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once("error", () => done(false));
    socket.once("data", (data) => done(data.toString().startsWith("+PONG")));
    socket.connect(port, "127.0.0.1", () => socket.write("PING\r\n"));
  });
}

/** A Redis for the suites; returns how to stop the one started here (a no-op for the machine's). */
export async function provideTestRedis(): Promise<() => Promise<void>> {
  if (process.env.TEST_REDIS_URL || (await answersPing(6379))) return async () => {};
  if (spawnSync("redis-server", ["--version"]).status !== 0) {
    throw new Error("no Redis answers on 127.0.0.1:6379 and redis-server is not installed: apt-get install redis-server, or set TEST_REDIS_URL");
  }
  const port = await portOutsideEphemeralRange(); // listened on by another process, a moment later
  const server: ChildProcess = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: "ignore",
  });
  const deadline = Date.now() + 60_000;
  while (!(await answersPing(port))) {
    if (server.exitCode !== null || Date.now() > deadline) throw new Error(`the redis-server started on ${port} did not answer PING (exit code ${server.exitCode})`);
    await sleep(50);
  }
  process.env.TEST_REDIS_URL = `redis://127.0.0.1:${port}`;
  console.log(`[tests] no Redis on 6379: started redis-server on ${port} for this run`);
  return async () => {
    server.kill("SIGTERM");
    await new Promise((r) => (server.exitCode !== null ? r(null) : server.once("exit", r)));
  };
}
