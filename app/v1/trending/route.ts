import { env } from "@/platform/env";
import { CACHE, onOrigin, requestOrigin } from "@/web/http/response";
import { tokenApiError } from "@/web/http/token-errors";
import { route, tokenService } from "@/web/services";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1/trending", async (request, url) => {
  const trending = await tokenService().trending().catch((error: unknown) => {
    throw tokenApiError(error);
  });
  return { body: { value: { ...trending, items: trending.items.map(onOrigin(requestOrigin(request, url, env().TRUST_PROXY))) } }, cache: CACHE.trending };
});
