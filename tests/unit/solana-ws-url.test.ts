import { Connection } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { solanaWebsocketUrl } from "../../lib/rpc/ws-url";

// The worker finds the RPC's WebSocket where @solana/web3.js's Connection
// would: pinned against web3.js itself, not against a copy of its rule.

describe("the WebSocket URL derived from an RPC URL", () => {
  it.each([
    "http://127.0.0.1:8899",
    "http://localhost:8899/",
    "https://api.mainnet-beta.solana.com",
    "https://rpc.example.com/v2/abc?api-key=1",
    "https://host.example:443/path",
    "http://[::1]:8899",
  ])("%s is where web3.js's Connection looks", (rpcUrl) => {
    const connection = new Connection(rpcUrl) as unknown as { _rpcWsEndpoint: string };
    expect(solanaWebsocketUrl(rpcUrl)).toBe(connection._rpcWsEndpoint);
  });

  it("moves an explicit port up by one and turns https into wss", () => {
    expect(solanaWebsocketUrl("http://127.0.0.1:8899")).toBe("ws://127.0.0.1:8900");
    expect(solanaWebsocketUrl("https://rpc.example.com/k")).toBe("wss://rpc.example.com/k");
  });
});
