import { endpoint } from "../http/endpoint";
import { nextHandlers } from "../http/next-adapter";
import { openApiDocument } from "../http/openapi/document";
import { CACHE } from "../http/response";
import { serve } from "../services";
import { llmsText } from "./llms-text";
import { readOperations } from "./read-operations";

// GET /llms.txt (app/llms.txt/route.ts): Markdown for agents, generated once
// per process from the OpenAPI document, like /v1/openapi.json. Outside /v1
// (so Next serves it under the launcher too), but answered by the API core
// all the same: its budget, HEAD, the 405 and the error shape are the table's.

let bytes: Uint8Array | undefined;

function llmsBytes(): Uint8Array {
  if (bytes === undefined) {
    const document = openApiDocument();
    bytes = new TextEncoder().encode(llmsText({ title: document.info.title, description: document.info.description ?? "" }, readOperations(document)));
  }
  return bytes;
}

const llmsEndpoint = endpoint({
  path: "/llms.txt",
  cache: CACHE.index,
  answer: async ({ request }) => {
    const body = llmsBytes();
    const headers = { "content-type": "text/markdown; charset=utf-8", "cache-control": CACHE.index };
    if (request.method === "HEAD") return { stream: null, headers };
    return { stream: new Blob([body as BlobPart]).stream(), headers };
  },
});

export const llmsHandlers = () => nextHandlers(serve, llmsEndpoint);
