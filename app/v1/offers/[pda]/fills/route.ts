import { notFound } from "@/web/http/errors";
import { address, parsePathParam, parseQuery } from "@/web/http/params";
import { checkPage, offerFillListQuery } from "@/web/http/query-schemas";
import { CACHE } from "@/web/http/response";
import { listOfferFills } from "@/lib/db/reads/fills";
import { offerExists } from "@/lib/db/reads/offers";
import { database, route } from "@/web/services";

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
