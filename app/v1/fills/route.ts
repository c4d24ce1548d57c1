import { parseQuery } from "@/web/http/params";
import { checkPage, checkTimeRange, fillListQuery } from "@/web/http/query-schemas";
import { CACHE } from "@/web/http/response";
import { listFills } from "@/lib/db/reads/fills";
import { database, route } from "@/web/services";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1/fills", async (_request, url) => {
  const query = parseQuery(url, fillListQuery);
  checkPage(query);
  checkTimeRange(query);
  return { body: { text: await listFills(database(), query) }, cache: CACHE.list };
});
