import { parseMints } from "@/web/http/query-schemas";
import { env } from "@/platform/env";
import { CACHE, onOrigin, requestOrigin } from "@/web/http/response";
import { tokenApiError } from "@/web/http/token-errors";
import { route, tokenService } from "@/web/services";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1/tokens", async (request, url) => {
  const tokens = await tokenService().resolve(parseMints(url)).catch((error: unknown) => {
    throw tokenApiError(error);
  });
  return { body: { value: { tokens: tokens.map(onOrigin(requestOrigin(request, url, env().TRUST_PROXY))) } }, cache: CACHE.tokens };
});
