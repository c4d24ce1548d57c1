import { address, parsePathParam, parseQuery } from "@/web/http/params";
import { checkPage, makerOfferListQuery } from "@/web/http/query-schemas";
import { CACHE } from "@/web/http/response";
import { listOffers } from "@/lib/db/reads/offers";
import { database, route } from "@/web/services";

export const dynamic = "force-dynamic";

const makerParam = address("maker");

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1/makers/[maker]/offers", async (_request, url, params) => {
  const maker = parsePathParam("maker", String(params.maker), makerParam);
  const query = parseQuery(url, makerOfferListQuery);
  checkPage(query);
  return { body: { text: await listOffers(database(), { ...query, maker }) }, cache: CACHE.list };
});
