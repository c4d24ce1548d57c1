import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertOffer } from "../../../lib/db/writes/index";
import { readOperations } from "../../../web/agents/read-operations";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { addressOf, offerFixture, USDC } from "../../helpers/fixtures";
import { startWebServer, type WebServer } from "../../helpers/server";

// What agents read, over real HTTP: /llms.txt made from the OpenAPI document,
// and the MCP server at /mcp driven by the SDK's own client (Streamable
// HTTP): its tools are the document's reads, answered by the routes
// themselves, with their validation, their JSON errors and the request budget.

let database: TestDatabase;
let server: WebServer;
let client: Client;
const sql = () => database.db.$client;
const TOKEN = addressOf("token:agents");

beforeAll(async () => {
  database = await createTestDatabase();
  await insertOffer(sql(), offerFixture("agents-ask", { tokenMint: TOKEN }));
  server = await startWebServer({ DATABASE_URL: database.url });
  client = new Client({ name: "agents-test", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`)));
});

afterAll(async () => {
  await client?.close();
  await server?.stop();
  await database?.drop();
});

type TextContent = { type: "text"; text: string }[];

describe("/llms.txt", () => {
  it("describes every read of the OpenAPI document, in Markdown", async () => {
    const response = await server.get("/llms.txt");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/markdown/);
    const text = await response.text();
    expect(text).toMatch(/^# Offer book explorer API/);
    for (const op of readOperations()) expect(text).toContain(`### ${op.name}: GET ${op.path}`);
    expect(text).toContain("- `tokenMint` (query, required)");
  });
});

describe("the MCP server at /mcp", () => {
  it("lists the document's reads as read-only tools with their parameters", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(readOperations().map((op) => op.name));
    for (const name of ["listMarkets", "listOffers", "getOffer", "listFills", "getBook", "listCandles", "getMakerStats", "listTokens"]) {
      expect(names).toContain(name);
    }
    const book = tools.find((t) => t.name === "getBook")!;
    expect(book.annotations?.readOnlyHint).toBe(true);
    expect(book.inputSchema.required).toEqual(["tokenMint", "paymentMint"]);
  });

  it("answers a tool call with the route's own JSON", async () => {
    const result = await client.callTool({ name: "getBook", arguments: { tokenMint: TOKEN, paymentMint: USDC, depth: 5 } });
    expect(result.isError).toBe(false);
    const book = JSON.parse((result.content as TextContent)[0]!.text);
    expect(book).toMatchObject({ tokenMint: TOKEN, paymentMint: USDC, depth: 5, asks: [{ price: "2.5", size: "1000000", offers: 1 }], bids: [] });
    const offer = await client.callTool({ name: "getOffer", arguments: { pda: offerFixture("agents-ask").pda } });
    expect(JSON.parse((offer.content as TextContent)[0]!.text)).toMatchObject({ tokenMint: TOKEN, status: "open" });
  });

  it("validates as the route does: a bad argument is the tool's error, in the API's error shape", async () => {
    const result = await client.callTool({ name: "getBook", arguments: { tokenMint: "nope", paymentMint: USDC } });
    expect(result.isError).toBe(true);
    expect(JSON.parse((result.content as TextContent)[0]!.text)).toEqual({
      error: "tokenMint must be a base58 address of 32 bytes",
      code: "invalid_parameter",
      param: "tokenMint",
    });
    const missing = await client.callTool({ name: "getOffer", arguments: { pda: addressOf("offer:none") } });
    expect(missing.isError).toBe(true);
    expect(JSON.parse((missing.content as TextContent)[0]!.text)).toMatchObject({ code: "not_found" });
  });

  it("offers no server-initiated stream and no session: GET and DELETE are 405", async () => {
    for (const method of ["GET", "DELETE"]) {
      const response = await fetch(`${server.baseUrl}/mcp`, { method, headers: { accept: "text/event-stream" } });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
    }
  });

  it("spends the request budget and says so", async () => {
    const response = await fetch(`${server.baseUrl}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("ratelimit-limit")).toBe("1200");
    expect(Number(response.headers.get("ratelimit-remaining"))).toBeLessThan(1200);
  });
});
