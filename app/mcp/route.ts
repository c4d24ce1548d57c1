import { answerMcp, type ReadCall } from "@/web/agents/mcp-server";
import { readOperations, type ReadOperation } from "@/web/agents/read-operations";
import { CLIENT_ADDRESS_HEADER } from "@/web/http/route";
import { spendBudget } from "@/web/services";
import { READ_HANDLERS } from "./reads";

export const dynamic = "force-dynamic";

let operations: ReadOperation[] | undefined;
/** The tools: the document's reads that have a handler here, made once per process. */
const tools = () => (operations ??= readOperations().filter((op) => op.path in READ_HANDLERS));

/** The headers the budget reads (the client's address), carried to the read a tool call makes. */
const BUDGET_HEADERS = [CLIENT_ADDRESS_HEADER, "x-forwarded-for"];

async function handle(request: Request): Promise<Response> {
  const spent = await spendBudget(request.headers, request.url);
  if (spent.refused) return spent.refused;
  const origin = new URL(request.url).origin;
  const headers = new Headers();
  for (const name of BUDGET_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  // A tool call is a read like any other: the route answers it, and spends this client's budget as a GET would.
  const call: ReadCall = (operation, target, pathParams) =>
    READ_HANDLERS[operation.path]!(new Request(origin + target, { headers }), { params: Promise.resolve(pathParams) });
  const response = await answerMcp(request, tools(), call);
  for (const [name, value] of Object.entries(spent.budget ?? {})) response.headers.set(name, value);
  return response;
}

/**
 * Stateless: no stream for the server to speak on its own (GET) and no
 * session to end (DELETE). The specification's answer is 405, which clients
 * take as "no such stream" rather than reconnecting to one that closes at once.
 */
function notOffered(): Response {
  const body = { jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: this MCP server is stateless; POST each message" }, id: null };
  return Response.json(body, { status: 405, headers: { allow: "POST" } });
}

export const POST = handle;
export const GET = notOffered;
export const DELETE = notOffered;
