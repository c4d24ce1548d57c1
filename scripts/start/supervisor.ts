import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { backoffDelay } from "../../lib/resilience";
import type { Logger } from "../../platform/log";

/**
 * Runs the parts of `npm start` (worker, web) as child processes and keeps
 * them running: a part that exits is restarted after a backoff (1 s, doubling
 * up to 30 s; back to 1 s once a run lasted a minute), and the others go on.
 * After `GIVE_UP_AFTER` failures in a row, each within `QUICK_MS` of its
 * start, it gives up: something is wrong that a restart will not fix.
 */
const QUICK_MS = 30_000;
const GIVE_UP_AFTER = 5;
const MAX_DELAY_MS = 30_000;
const HARD_STOP_MS = 30_000;

const PRELOAD = pathToFileURL(path.join(import.meta.dirname, "../exit-with-parent.mjs")).href;

export interface PartSpec {
  name: string;
  /** Node arguments: the script and its arguments. */
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** Exit codes that mean "restarting will not help" (a refusal, bad configuration): give up at once. */
  finalExitCodes?: number[];
}

interface Part {
  spec: PartSpec;
  child?: ChildProcess;
  startedAt: number;
  quickFailures: number;
  timer?: NodeJS.Timeout;
}

export class Supervisor {
  private readonly parts: Part[] = [];
  private stopping = false;

  constructor(
    private readonly log: Logger,
    /** Called once when a part keeps failing: stop everything with this line. */
    private readonly giveUp: (line: string) => void,
    private readonly baseDelayMs = 1_000,
  ) {}

  start(spec: PartSpec): void {
    const part: Part = { spec, startedAt: 0, quickFailures: 0 };
    this.parts.push(part);
    this.launch(part);
  }

  private launch(part: Part): void {
    const { spec } = part;
    part.startedAt = Date.now();
    const child = spawn(process.execPath, ["--import", PRELOAD, ...spec.args], {
      cwd: spec.cwd,
      env: { ...process.env, ...spec.env },
      stdio: ["ignore", "inherit", "inherit"],
    });
    part.child = child;
    child.on("error", (error) => this.log.error({ part: spec.name, err: error }, `could not run the ${spec.name}`));
    child.on("exit", (code, signal) => this.exited(part, code, signal));
  }

  private exited(part: Part, code: number | null, signal: NodeJS.Signals | null): void {
    part.child = undefined;
    if (this.stopping) return;
    const { name } = part.spec;
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    if (code !== null && part.spec.finalExitCodes?.includes(code)) {
      this.giveUp(`the ${name} ${how}, which a restart will not change: see its line above`);
      return;
    }
    const ranMs = Date.now() - part.startedAt;
    part.quickFailures = ranMs < QUICK_MS ? part.quickFailures + 1 : 1;
    if (part.quickFailures >= GIVE_UP_AFTER) {
      this.giveUp(`the ${name} ${how}, ${GIVE_UP_AFTER} times in a row within ${QUICK_MS / 1000} s of starting: see its log above, fix the cause, then npm start again`);
      return;
    }
    const delay = backoffDelay({ baseMs: this.baseDelayMs, maxMs: MAX_DELAY_MS }, part.quickFailures - 1);
    this.log.warn(`the ${name} ${how}; restarting it in ${delay / 1000} s (the rest keeps running)`);
    part.timer = setTimeout(() => {
      part.timer = undefined;
      if (!this.stopping) this.launch(part);
    }, delay);
  }

  /** The pids of the parts now running, by name. */
  pids(): Record<string, number | undefined> {
    return Object.fromEntries(this.parts.map((p) => [p.spec.name, p.child?.pid]));
  }

  /** SIGTERM to every part (the worker finishes its batch), SIGKILL after 30 s. */
  async stopAll(): Promise<void> {
    this.stopping = true;
    await Promise.all(
      this.parts.map((part) => {
        if (part.timer) clearTimeout(part.timer);
        const child = part.child;
        if (!child || child.exitCode !== null || child.signalCode !== null) return;
        return new Promise<void>((resolve) => {
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
          setTimeout(() => child.kill("SIGKILL"), HARD_STOP_MS).unref();
        });
      }),
    );
  }
}
