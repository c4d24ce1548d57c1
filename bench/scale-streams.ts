import { Worker } from "node:worker_threads";
import { build } from "esbuild";
import type { StreamRecord, ThreadData, ThreadMessage, ThreadStream } from "./sse-reader-thread";

export type { StreamRecord };

// bench:scale's stream readers, light enough that thousands of them measure
// the web processes and not themselves: spread over worker threads, each
// stream a raw node:http GET scanned for ids (bench/sse-reader-thread.ts,
// bench/sse-ids.ts). Before them, 400 fetch + eventsource-parser readers with
// a 20 ms poll each starved in the bench's one thread (docs/scale.md).
// The thread's code is bundled with esbuild and run as an eval'd worker: no
// TypeScript loader per thread, nothing written to disk.

export interface StreamSpec {
  baseUrl: string;
  path: string;
  /** Resume after this id; null: from now. */
  after: number | null;
  /** The web process (or proxy) the stream is counted under. */
  group: number;
}

let threadCode: Promise<string> | null = null;
function bundledThread(): Promise<string> {
  threadCode ??= build({
    entryPoints: [new URL("./sse-reader-thread.ts", import.meta.url).pathname],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    write: false,
    logLevel: "silent",
  }).then((result) => result.outputFiles[0]!.text);
  return threadCode;
}

export class StreamReaders {
  private constructor(
    private readonly workers: Worker[],
    /** Each spec's thread and place in it. */
    private readonly placement: { thread: number; index: number }[],
    private readonly newestIds: Float64Array,
    private readonly groups: number,
  ) {}

  /** Opens every stream and resolves once each has answered 200 (retrying refusals), at most `timeoutMs`. */
  static async open(specs: StreamSpec[], threads: number, timeoutMs = 300_000): Promise<StreamReaders> {
    const code = await bundledThread();
    const groups = Math.max(0, ...specs.map((s) => s.group)) + 1;
    const count = Math.max(1, Math.min(threads, specs.length));
    const shared = new SharedArrayBuffer(Float64Array.BYTES_PER_ELEMENT * groups * count);
    const perThread: ThreadStream[][] = Array.from({ length: count }, () => []);
    const placement = specs.map((spec, i) => {
      const thread = i % count;
      const url = new URL(spec.baseUrl);
      perThread[thread]!.push({ host: url.hostname, port: Number(url.port), path: spec.path, after: spec.after, group: spec.group });
      return { thread, index: perThread[thread]!.length - 1 };
    });
    const workers = perThread.map((streams, t) => new Worker(code, { eval: true, workerData: { streams, newest: shared, slot: t * groups } satisfies ThreadData }));
    const readers = new StreamReaders(workers, placement, new Float64Array(shared), groups);
    try {
      await Promise.all(
        workers.map(
          (worker, t) =>
            new Promise<void>((resolve, reject) => {
              const timer = setTimeout(() => reject(new Error(`stream readers: thread ${t}'s ${perThread[t]!.length} streams not all open within ${timeoutMs} ms`)), timeoutMs);
              worker.once("error", reject);
              worker.once("message", (message: ThreadMessage) => {
                clearTimeout(timer);
                if (message.type === "ready") resolve();
              });
            }),
        ),
      );
    } catch (error) {
      await Promise.all(workers.map((w) => w.terminate()));
      throw error;
    }
    return readers;
  }

  /** The newest id any stream of `group` has received so far. */
  newest(group: number): number {
    let max = 0;
    for (let t = 0; t < this.workers.length; t++) max = Math.max(max, this.newestIds[t * this.groups + group]!);
    return max;
  }

  /** Closes every stream; each one's ids and arrival times, in the order the specs were given. */
  async close(): Promise<StreamRecord[]> {
    const perThread = await Promise.all(
      this.workers.map(
        (worker) =>
          new Promise<StreamRecord[]>((resolve, reject) => {
            worker.once("error", reject);
            worker.on("message", (message: ThreadMessage) => {
              if (message.type === "done") resolve(message.records);
            });
            worker.postMessage({ type: "close" });
          }),
      ),
    );
    await Promise.all(this.workers.map((w) => w.terminate()));
    return this.placement.map(({ thread, index }) => perThread[thread]![index]!);
  }
}
