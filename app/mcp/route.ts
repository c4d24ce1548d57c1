import { answerMcpRequest } from "@/web/agents/mcp-route";

export const dynamic = "force-dynamic";

/**
 * Stateless: no stream for the server to speak on its own (GET) and no
 * session to end (DELETE). The specification's answer is 405, which clients
 * take as "no such stream" rather than reconnecting to one that closes at once.
 */
function notOffered(): Response {
  const body = { jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: this MCP server is stateless; POST each message" }, id: null };
  return Response.json(body, { status: 405, headers: { allow: "POST" } });
}

export const POST = answerMcpRequest;
export const GET = notOffered;
export const DELETE = notOffered;
