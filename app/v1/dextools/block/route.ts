import { dexBlockQuery } from "@/web/http/adapter-query-schemas";
import { dexToolsErrorShape } from "@/web/http/adapter-errors";
import { ApiError, notFound } from "@/web/http/errors";
import { parseQuery } from "@/web/http/params";
import { CACHE } from "@/web/http/response";
import { findDexBlock } from "@/lib/adapters/dextools";
import { database, route } from "@/web/services";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route(
  "/v1/dextools/block",
  async (_request, url) => {
    const q = parseQuery(url, dexBlockQuery);
    if (q.number === undefined && q.timestamp === undefined) throw new ApiError("missing_parameter", "number or timestamp is required", "number");
    const block = await findDexBlock(database(), q.number !== undefined ? { number: q.number } : { timestamp: q.timestamp! });
    if (!block) throw notFound("no announced block there: a slot without an indexed program transaction, or one not yet final");
    return { body: { value: { block } }, cache: CACHE.offer };
  },
  { errorShape: dexToolsErrorShape },
);
