import { openApiDocument } from "../http/openapi/document";

// The read endpoints as the OpenAPI document describes them, for the
// agents' views of the API (/llms.txt and the MCP server's tools): one
// source, so an agent reads what the document says and nothing restated.

export interface OperationParameter {
  name: string;
  in: "query" | "path";
  required: boolean;
  description: string;
  schema: Record<string, unknown>;
}

export interface ReadOperation {
  /** The document's operationId: also the MCP tool's name. */
  name: string;
  /** The path template, e.g. /v1/offers/{pda}. */
  path: string;
  summary: string;
  description: string;
  parameters: OperationParameter[];
}

/** What an agent calls as a tool: every read but the endpoint list, the document itself and the event stream (which never ends). */
const NOT_TOOLS = new Set(["/v1", "/v1/openapi.json", "/v1/stream"]);

interface DocumentOperation {
  operationId: string;
  summary?: string;
  description?: string;
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: Record<string, unknown> }[];
}

export function readOperations(document: { paths?: unknown } = openApiDocument()): ReadOperation[] {
  const paths = (document.paths ?? {}) as Record<string, { get?: DocumentOperation }>;
  return Object.entries(paths).flatMap(([path, item]) => {
    const get = item.get;
    if (!get || NOT_TOOLS.has(path)) return [];
    const parameters = (get.parameters ?? [])
      .filter((p) => p.in === "query" || p.in === "path")
      .map((p) => ({
        name: p.name,
        in: p.in as "query" | "path",
        required: p.in === "path" || p.required === true,
        description: p.description ?? String(p.schema?.description ?? ""),
        schema: p.schema ?? { type: "string" },
      }));
    return [{ name: get.operationId, path, summary: get.summary ?? "", description: get.description ?? "", parameters }];
  });
}

/** The request path and query of one call: path parameters put in place, the rest as the query (numbers and booleans as text). */
export function operationTarget(operation: ReadOperation, args: Record<string, unknown>): { target: string; pathParams: Record<string, string> } {
  const pathParams: Record<string, string> = {};
  const query = new URLSearchParams();
  for (const p of operation.parameters) {
    const value = args[p.name];
    if (value === undefined || value === null) continue;
    const text = String(value);
    if (p.in === "path") pathParams[p.name] = text;
    else query.set(p.name, text);
  }
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(pathParams[name] ?? ""));
  const search = query.toString();
  return { target: search ? `${path}?${search}` : path, pathParams };
}
