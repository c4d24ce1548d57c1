import { createServer } from "node:http";
import { exitWithOneLine, StartupError } from "../platform/startup-error";
import type { WorkerMetrics } from "./metrics";

export interface HealthView {
  role(): "standby" | "leader" | "stopping";
  /** Ready: leading, caught up, and a round finished within a minute. */
  ready(): boolean;
  caughtUp(): boolean;
}

/**
 * The worker's operator endpoints on 127.0.0.1:`port`: `/health` (liveness:
 * cheap, never the lag, which would restart a worker that is only busy),
 * `/health/ready`, and `/metrics` (Prometheus text format).
 */
export function serveHealth(port: number, view: HealthView, metrics: WorkerMetrics): void {
  const server = createServer((req, res) => {
    const body = (status: number, value: object) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(value));
    };
    const path = (req.url ?? "/").split("?")[0];
    if (path === "/health") return body(200, { status: "ok", role: view.role() });
    if (path === "/health/ready") {
      const ready = view.ready();
      return body(ready ? 200 : 503, { ready, role: view.role(), caughtUp: view.caughtUp() });
    }
    if (path === "/metrics") {
      metrics.registry.metrics().then(
        (text) => {
          res.writeHead(200, { "content-type": metrics.registry.contentType });
          res.end(text);
        },
        () => body(500, { error: "metrics unavailable" }),
      );
      return;
    }
    body(404, { error: "not found" });
  });
  server.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EADDRINUSE") {
      exitWithOneLine("worker", new StartupError(`WORKER_HEALTH_PORT ${port} is already in use`, "stop what listens there or set WORKER_HEALTH_PORT to a free port"));
    }
    exitWithOneLine("worker", error);
  });
  server.listen(port, "127.0.0.1");
  server.unref();
}
