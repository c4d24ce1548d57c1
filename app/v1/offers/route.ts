import { checkCsvPage, csvResponse, wantsCsv } from "@/web/http/csv";
import { parseQuery } from "@/web/http/params";
import { checkBookSort, checkPage, offerListQuery } from "@/web/http/query-schemas";
import { CACHE } from "@/web/http/response";
import { exportOffers, listOffers } from "@/lib/db/reads/offers";
import { database, route } from "@/web/services";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1/offers", async (request, url) => {
  const query = parseQuery(url, offerListQuery);
  checkPage(query);
  checkBookSort(query);
  if (wantsCsv(request, query.format)) {
    checkCsvPage(url);
    return csvResponse(request, "offers.csv", exportOffers(database(), query));
  }
  return { body: { text: await listOffers(database(), query) }, cache: CACHE.list };
});
