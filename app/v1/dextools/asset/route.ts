import { dexAssetQuery } from "@/web/http/adapter-query-schemas";
import { dexToolsErrorShape } from "@/web/http/adapter-errors";
import { notFound } from "@/web/http/errors";
import { parseQuery } from "@/web/http/params";
import { CACHE } from "@/web/http/response";
import { tokenApiError } from "@/web/http/token-errors";
import { mintIsTraded } from "@/lib/adapters/dextools";
import { database, route, tokenService } from "@/web/services";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route(
  "/v1/dextools/asset",
  async (_request, url) => {
    const { id } = parseQuery(url, dexAssetQuery);
    if (!(await mintIsTraded(database(), id))) throw notFound(`no offer in this index trades ${id}`);
    const [token] = await tokenService()
      .resolve([id])
      .catch((error: unknown) => {
        throw tokenApiError(error);
      });
    const asset = { id, ...(token?.name ? { name: token.name } : {}), ...(token?.symbol ? { symbol: token.symbol } : {}) };
    return { body: { value: { asset } }, cache: CACHE.tokens };
  },
  { errorShape: dexToolsErrorShape },
);
