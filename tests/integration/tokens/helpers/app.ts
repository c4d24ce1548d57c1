import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { ChainUnavailable, UpstreamError, type TokenService } from "../../../../lib/tokens/index";

/**
 * The two routes as thin as the real handlers are meant to be (parse, one
 * service call, JSON), so the service is driven by real concurrent HTTP
 * clients without building the Next.js app. Validation here is minimal.
 */
export async function startTokenApp(service: TokenService): Promise<{ url: string; stop(): Promise<void> }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://app");
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const work =
      url.pathname === "/v1/tokens"
        ? service.resolve([...new Set((url.searchParams.get("mints") ?? "").split(",").filter(Boolean))]).then((tokens) => ({ tokens }))
        : url.pathname === "/v1/trending"
          ? service.trending()
          : Promise.reject(new Error("not found"));
    work.then(
      (body) => send(200, body),
      (error: unknown) =>
        error instanceof UpstreamError
          ? send(502, { error: error.message, code: "upstream_error" })
          : error instanceof ChainUnavailable
            ? send(503, { error: error.message, code: "unavailable" })
            : send(500, { error: String(error), code: "internal_error" }),
    );
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
