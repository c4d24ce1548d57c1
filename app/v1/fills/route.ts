import { checkCsvPage, csvResponse, wantsCsv } from "@/web/http/csv";
import { parseQuery } from "@/web/http/params";
import { checkPage, checkTimeRange, fillListQuery } from "@/web/http/query-schemas";
import { CACHE } from "@/web/http/response";
import { exportFills, listFills } from "@/lib/db/reads/fills";
import { database, route } from "@/web/services";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1/fills", async (request, url) => {
  const query = parseQuery(url, fillListQuery);
  checkPage(query);
  checkTimeRange(query);
  if (wantsCsv(request, query.format)) {
    checkCsvPage(url);
    return csvResponse(request, "fills.csv", exportFills(database(), query, query.cursor));
  }
  return { body: { text: await listFills(database(), query) }, cache: CACHE.list };
});
