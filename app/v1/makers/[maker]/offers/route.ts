import { address, parsePathParam, parseQuery } from "@/lib/http/params";
import { checkPage, makerOfferListQuery } from "@/lib/http/query-schemas";
import { CACHE } from "@/lib/http/response";
import { listOffers } from "@/lib/queries/offers";
import { database, route } from "@/lib/runtime";

export const dynamic = "force-dynamic";

const makerParam = address("maker");

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1/makers/[maker]/offers", async (_request, url, params) => {
  const maker = parsePathParam("maker", String(params.maker), makerParam);
  const query = parseQuery(url, makerOfferListQuery);
  checkPage(query);
  return { body: { text: await listOffers(database(), { ...query, maker }) }, cache: CACHE.list };
});
