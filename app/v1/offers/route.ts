import { parseQuery } from "@/lib/http/params";
import { checkBookSort, checkPage, offerListQuery } from "@/lib/http/query-schemas";
import { CACHE } from "@/lib/http/response";
import { listOffers } from "@/lib/queries/offers";
import { database, route } from "@/lib/runtime";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1/offers", async (_request, url) => {
  const query = parseQuery(url, offerListQuery);
  checkPage(query);
  checkBookSort(query);
  return { body: { text: await listOffers(database(), query) }, cache: CACHE.list };
});
