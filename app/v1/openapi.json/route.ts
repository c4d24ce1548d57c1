import { openApiDocument } from "@/web/http/openapi/document";
import { CACHE } from "@/web/http/response";
import { route } from "@/web/services";

export const dynamic = "force-dynamic";

// Generated once per process, on first request: the schemas do not change while it runs.
let text: string | undefined;

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1/openapi.json", async () => {
  text ??= JSON.stringify(openApiDocument());
  return { body: { text }, cache: CACHE.index };
});
