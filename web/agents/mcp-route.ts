import { apiRoutes } from "../api/routes";
import { CLIENT_ADDRESS_HEADER } from "../http/api";
import { toWebResponse } from "../http/next-adapter";
import { serve, spendBudget } from "../services";
import { answerMcp, type ReadCall } from "./mcp-server";
import { readOperations, type ReadOperation } from "./read-operations";

// POST /mcp (app/mcp/route.ts): the MCP server over the route table. A tool
// call is a GET that the API core (web/http/api.ts) answers from the table,
// as either server answers it: the same validation, errors, budget and
// answer, with no list of handlers to keep beside the table.

/** The document's path template as the table spells it: /v1/offers/{pda} is /v1/offers/[pda]. */
const tablePath = (template: string) => template.replace(/\{(\w+)\}/g, "[$1]");

function inTable(operation: ReadOperation): boolean {
  try {
    apiRoutes.at(tablePath(operation.path));
    return true;
  } catch {
    return false;
  }
}

let operations: ReadOperation[] | undefined;
/** The tools: the document's reads that the table serves, made once per process. */
const tools = () => (operations ??= readOperations().filter(inTable));

/** The headers the budget reads (the client's address), carried to the read a tool call makes. */
const BUDGET_HEADERS = [CLIENT_ADDRESS_HEADER, "x-forwarded-for"];

export async function answerMcpRequest(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const spent = await spendBudget(request.headers, url.pathname + url.search);
  if (spent.refused) return toWebResponse(spent.refused);
  const headers = new Headers();
  for (const name of BUDGET_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  // A tool call is a read like any other: the table's endpoint answers it, and spends this client's budget as a GET would.
  const call: ReadCall = async (_operation, target) => {
    const readUrl = new URL(target, url.origin);
    const { endpoint, params } = apiRoutes.match(readUrl.pathname)!; // the table's catch-all answers any other /v1 path
    return toWebResponse(await serve(endpoint, { method: "GET", url: readUrl, headers, params, signal: request.signal }));
  };
  const response = await answerMcp(request, tools(), call);
  for (const [name, value] of Object.entries(spent.budget ?? {})) response.headers.set(name, value);
  return response;
}
