import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { operationTarget, type ReadOperation } from "./read-operations";

// The MCP server at /mcp: its tools are the API's read operations as the
// OpenAPI document describes them (./read-operations.ts). A tool call is
// answered by the very route that answers the same GET, so its validation,
// errors and request budget are the route's. Stateless (no session id): each
// HTTP request carries its own server and transport, so any instance behind
// a balancer can answer any message.

/** Runs one read as its route would: the request path and query, and the path parameters the route reads. */
export type ReadCall = (operation: ReadOperation, target: string, pathParams: Record<string, string>) => Promise<Response>;

const SERVER_INFO = { name: "offer-book-explorer", version: "v1" };

function toolOf(operation: ReadOperation): Tool {
  const properties: Record<string, object> = {};
  for (const p of operation.parameters) properties[p.name] = { ...p.schema, description: p.description || undefined };
  const required = operation.parameters.filter((p) => p.required).map((p) => p.name);
  return {
    name: operation.name,
    title: operation.summary,
    description: [operation.summary, operation.description, `GET ${operation.path}`].filter(Boolean).join("\n\n"),
    inputSchema: { type: "object", properties, ...(required.length ? { required } : {}) },
    annotations: { readOnlyHint: true, openWorldHint: false },
  };
}

function mcpServer(operations: ReadOperation[], call: ReadCall): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} } });
  const byName = new Map(operations.map((op) => [op.name, op]));
  const tools = operations.map(toolOf);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const operation = byName.get(request.params.name);
    if (!operation) {
      return { isError: true, content: [{ type: "text" as const, text: `no tool named ${request.params.name}; tools/list names them` }] };
    }
    const { target, pathParams } = operationTarget(operation, request.params.arguments ?? {});
    const response = await call(operation, target, pathParams);
    const text = await response.text();
    // The route's JSON error ({ error, code, param }) is the tool's error, word for word.
    return { isError: response.status >= 400, content: [{ type: "text" as const, text }] };
  });
  return server;
}

/** Answers one MCP HTTP request (POST a JSON-RPC message; GET and DELETE are 405 in stateless mode). */
export async function answerMcp(request: Request, operations: ReadOperation[], call: ReadCall): Promise<Response> {
  const server = mcpServer(operations, call);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    // With JSON responses the answer is complete once handleRequest returns.
    await server.close();
  }
}
