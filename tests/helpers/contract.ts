import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { openApiDocument } from "../../web/http/openapi/document";

// The contract test: every JSON answer the API suites receive through
// WebServer.json is checked against the OpenAPI document's schema for its
// path and status, so a body the SQL writes and the document's description
// cannot disagree without a suite failing.

const document = openApiDocument();
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema(document as object, "openapi");

/** The document's path templates as patterns, longest (most specific) first. */
const templates = Object.keys(document.paths ?? {})
  .map((template) => ({ template, pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`) }))
  .sort((a, b) => b.template.length - a.template.length);

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
const compiled = new Map<string, ValidateFunction>();

function validatorFor(template: string, status: number): ValidateFunction | undefined {
  const ref = `openapi#/${pointer("paths", template, "get", "responses", String(status), "content", "application/json", "schema")}`;
  if (!compiled.has(ref)) {
    const schema = ajv.getSchema(ref);
    if (!schema) return undefined;
    compiled.set(ref, schema);
  }
  return compiled.get(ref);
}

const errorValidator = () => ajv.getSchema("openapi#/components/schemas/Error")!;

/** Throws when `body`, answered with `status` to a GET of `pathAndQuery`, is not what the document says. */
export function checkContract(pathAndQuery: string, status: number, body: unknown): void {
  const path = new URL(pathAndQuery, "http://x").pathname;
  if (!path.startsWith("/v1")) return;
  const match = templates.find((t) => t.pattern.test(path));
  // An unknown path is the catch-all 404: the error body.
  const validate = match ? validatorFor(match.template, status) : status >= 400 ? errorValidator() : undefined;
  if (!validate) throw new Error(`contract: ${path} answered ${status}, which the OpenAPI document does not list for ${match?.template ?? "any path"}`);
  if (!validate(body)) {
    throw new Error(`contract: ${path} answered ${status} with a body the OpenAPI document does not allow: ${ajv.errorsText(validate.errors)}`);
  }
}
