import { Ajv2020 } from "ajv/dist/2020.js";
import { openApiDocument } from "../../web/http/openapi/document";

// The request side of the contract (./contract.ts checks answers): whether the
// OpenAPI document accepts a GET of a path and query, parameter by parameter,
// as a validating proxy (Prism) reads it: query values are strings on the
// wire, read as integers where the schema says integer. Parameters the
// document does not name are ignored, as the server ignores them.

const document = JSON.parse(JSON.stringify(openApiDocument()));
const ajv = new Ajv2020({ strict: false, allErrors: true });

interface Parameter {
  name: string;
  in: "query" | "path" | "header";
  required?: boolean;
  schema: { type?: string };
}

const templates = Object.keys(document.paths).map((template) => ({
  template,
  names: [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
  pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, "([^/]+)")}$`),
}));

/** Why the document refuses the request, or null when it accepts it. */
export function documentRefusal(pathAndQuery: string, headers: Record<string, string> = {}): string | null {
  const url = new URL(pathAndQuery, "http://x");
  const match = templates.map((t) => ({ t, m: t.pattern.exec(url.pathname) })).find((x) => x.m);
  if (!match) return `no path ${url.pathname}`;
  const pathValues = Object.fromEntries(match.t.names.map((name, i) => [name, decodeURIComponent(match.m![i + 1]!)]));
  const parameters: Parameter[] = document.paths[match.t.template].get.parameters ?? [];
  for (const parameter of parameters) {
    const raw =
      parameter.in === "query" ? url.searchParams.get(parameter.name) : parameter.in === "path" ? pathValues[parameter.name] : headers[parameter.name.toLowerCase()];
    if (raw === undefined || raw === null) {
      if (parameter.required) return `${parameter.name} is required`;
      continue;
    }
    let value: unknown = raw;
    if (parameter.schema.type === "integer") {
      if (!/^-?\d+$/.test(raw)) return `${parameter.name} is not an integer`;
      value = Number(raw);
    }
    const validate = ajv.compile(parameter.schema);
    if (!validate(value)) return `${parameter.name}: ${ajv.errorsText(validate.errors)}`;
  }
  return null;
}
