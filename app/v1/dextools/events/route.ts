import { checkBlockRange, dexEventsQuery } from "@/web/http/adapter-query-schemas";
import { dexToolsErrorShape } from "@/web/http/adapter-errors";
import { parseQuery } from "@/web/http/params";
import { CACHE } from "@/web/http/response";
import { listDexEvents } from "@/lib/adapters/dextools";
import { mintDecimals } from "@/web/mint-decimals";
import { database, route } from "@/web/services";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route(
  "/v1/dextools/events",
  async (_request, url) => {
    const range = parseQuery(url, dexEventsQuery);
    checkBlockRange(range);
    return { body: { value: { events: await listDexEvents(database(), range, mintDecimals) } }, cache: CACHE.list };
  },
  { errorShape: dexToolsErrorShape },
);
