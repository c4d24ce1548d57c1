import type { OperationParameter, ReadOperation } from "./read-operations";

/** A parameter's description, its allowed values and its default, as the document states them. */
function describe(p: OperationParameter): string {
  const values = Array.isArray(p.schema.enum) ? `one of ${p.schema.enum.join(", ")}` : "";
  const fallback = p.schema.default === undefined ? "" : `default ${String(p.schema.default)}`;
  return [p.description, values, fallback].filter(Boolean).join("; ") || String(p.schema.type ?? "string");
}

/**
 * /llms.txt (the llmstxt.org convention): the API in Markdown for a language
 * model, made from the OpenAPI document's read operations, so it says what
 * the document says. Generated once per process.
 */
export function llmsText(info: { title: string; description: string }, operations: ReadOperation[]): string {
  const lines = [
    `# ${info.title}`,
    "",
    `> ${info.description}`,
    "",
    "Every endpoint is a GET on this origin answering JSON; errors are JSON `{ error, code, param? }` with a 4xx or 5xx status.",
    "The full OpenAPI 3.1 document: [/v1/openapi.json](/v1/openapi.json); rendered for people at [/docs](/docs).",
    "The same reads are tools of the MCP server at /mcp (Streamable HTTP, stateless), each named by its operationId below.",
    "",
    "## Endpoints",
    "",
  ];
  for (const op of operations) {
    lines.push(`### ${op.name}: GET ${op.path}`, "", op.summary, "");
    if (op.description) lines.push(op.description, "");
    for (const p of op.parameters) {
      const required = p.required ? ", required" : "";
      lines.push(`- \`${p.name}\` (${p.in}${required}): ${describe(p)}`);
    }
    if (op.parameters.length) lines.push("");
  }
  return lines.join("\n");
}
