import { notFound } from "@/web/http/errors";
import { address, parsePathParam } from "@/web/http/params";
import { CACHE } from "@/web/http/response";
import { getOffer } from "@/lib/db/reads/offers";
import { database, route } from "@/web/services";

export const dynamic = "force-dynamic";

const pdaParam = address("pda");

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1/offers/[pda]", async (_request, _url, params) => {
  const pda = parsePathParam("pda", String(params.pda), pdaParam);
  const offer = await getOffer(database(), pda);
  if (offer === undefined) throw notFound(`offer ${pda} is unknown to the indexer`);
  return { body: { text: offer }, cache: CACHE.offer };
});
