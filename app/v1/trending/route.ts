import { ApiError } from "@/lib/http/errors";
import { env } from "@/lib/env";
import { CACHE, onOrigin, requestOrigin } from "@/lib/http/response";
import { route, tokenService } from "@/lib/runtime";
import { isUpstreamError } from "@/lib/tokens";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1/trending", async (request, url) => {
  try {
    const trending = await tokenService().trending();
    return { body: { value: { ...trending, items: trending.items.map(onOrigin(requestOrigin(request, url, env().TRUST_PROXY))) } }, cache: CACHE.trending };
  } catch (error) {
    if (isUpstreamError(error)) throw new ApiError("upstream_error", `the token provider failed (${error.failure}) and nothing cached can answer`);
    throw error;
  }
});
