import { llmsText } from "@/web/agents/llms-text";
import { readOperations } from "@/web/agents/read-operations";
import { openApiDocument } from "@/web/http/openapi/document";
import { CACHE } from "@/web/http/response";
import { route } from "@/web/services";

export const dynamic = "force-dynamic";

// Generated once per process, like /v1/openapi.json, from the same document.
let text: string | undefined;

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/llms.txt", async () => {
  if (text === undefined) {
    const document = openApiDocument();
    text = llmsText({ title: document.info.title, description: document.info.description ?? "" }, readOperations(document));
  }
  return new Response(text, { headers: { "content-type": "text/markdown; charset=utf-8", "cache-control": CACHE.index } });
});
