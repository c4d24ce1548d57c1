import { Agent, request } from "node:http";

/** Keep-alive sockets enough for hundreds of requests to be in flight together. */
export function httpClient(maxSockets = 256) {
  const agent = new Agent({ keepAlive: true, maxSockets });
  return {
    getJson<T>(url: string): Promise<{ status: number; body: T }> {
      return new Promise((resolve, reject) => {
        const req = request(url, { agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            try {
              resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as T });
            } catch (error) {
              reject(error);
            }
          });
          res.on("error", reject);
        });
        req.on("error", reject);
        req.end();
      });
    },
    close: () => agent.destroy(),
  };
}
