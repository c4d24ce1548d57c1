import { describe, expect, it } from "vitest";
import { clientKey, CLIENT_ADDRESS_HEADER } from "../../web/http/api";

const request = (headers: Record<string, string>) => new Request("http://localhost/v1/stats", { headers });

describe("clientKey: whose budget a request spends", () => {
  const socket = { [CLIENT_ADDRESS_HEADER]: "192.0.2.1" };

  it("without TRUST_PROXY is the socket's address, whatever forwarding headers say", () => {
    expect(clientKey(request({ ...socket, "x-forwarded-for": "1.2.3.4" }), false)).toBe("192.0.2.1");
    expect(clientKey(request({ ...socket, "x-forwarded-for": "1.2.3.4, 5.6.7.8", "x-real-ip": "9.9.9.9" }), false)).toBe("192.0.2.1");
  });

  it("with TRUST_PROXY is the last x-forwarded-for hop, the one the proxy appended", () => {
    expect(clientKey(request({ ...socket, "x-forwarded-for": "1.2.3.4, 203.0.113.7" }), true)).toBe("203.0.113.7");
    expect(clientKey(request({ ...socket, "x-forwarded-for": " 203.0.113.7 " }), true)).toBe("203.0.113.7");
  });

  it("with TRUST_PROXY but no proxy header falls back to the socket", () => {
    expect(clientKey(request(socket), true)).toBe("192.0.2.1");
    expect(clientKey(request({ ...socket, "x-forwarded-for": "1.2.3.4, " }), true)).toBe("192.0.2.1");
  });
});
