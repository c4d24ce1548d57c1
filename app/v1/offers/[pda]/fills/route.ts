import { notFound } from "@/lib/http/errors";
import { address, parsePathParam, parseQuery } from "@/lib/http/params";
import { checkPage, offerFillListQuery } from "@/lib/http/query-schemas";
import { CACHE } from "@/lib/http/response";
import { listOfferFills } from "@/lib/queries/fills";
import { offerExists } from "@/lib/queries/offers";
import { database, route } from "@/lib/runtime";

export const dynamic = "force-dynamic";

const pdaParam = address("pda");

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1/offers/[pda]/fills", async (_request, url, params) => {
  const pda = parsePathParam("pda", String(params.pda), pdaParam);
  const page = parseQuery(url, offerFillListQuery);
  checkPage(page);
  const db = database();
  const [exists, body] = await Promise.all([offerExists(db, pda), listOfferFills(db, pda, page)]);
  if (!exists) throw notFound(`offer ${pda} is unknown to the indexer`);
  return { body: { text: body }, cache: CACHE.list };
});
