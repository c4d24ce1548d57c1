import pino, { type Logger } from "pino";
import pretty from "pino-pretty";
import { env } from "./env";

export type { Logger };

/**
 * The one way a process here makes its logger: readable lines when a person
 * watches a terminal, JSON lines for a collector otherwise (LOG_FORMAT forces
 * either). Pretty-printing runs in this thread, synchronously, rather than as
 * a pino transport: a transport is a worker thread with its own heap, which a
 * worker that should stay small does not need.
 */
export function createLogger(service: string): Logger {
  const config = env();
  const readable = config.LOG_FORMAT ? config.LOG_FORMAT === "pretty" : Boolean(process.stdout.isTTY);
  const options = { level: config.LOG_LEVEL, base: { service } };
  if (!readable) return pino(options);
  return pino(
    options,
    pretty({ sync: true, colorize: Boolean(process.stdout.isTTY), translateTime: "HH:MM:ss", ignore: "pid,hostname,service", messageFormat: "[{service}] {msg}", singleLine: true }),
  );
}
