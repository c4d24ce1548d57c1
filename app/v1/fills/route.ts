import { parseQuery } from "@/lib/http/params";
import { checkPage, checkTimeRange, fillListQuery } from "@/lib/http/query-schemas";
import { CACHE } from "@/lib/http/response";
import { listFills } from "@/lib/queries/fills";
import { database, route } from "@/lib/runtime";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1/fills", async (_request, url) => {
  const query = parseQuery(url, fillListQuery);
  checkPage(query);
  checkTimeRange(query);
  return { body: { text: await listFills(database(), query) }, cache: CACHE.list };
});
