import { notFound } from "@/lib/http/errors";
import { address, parsePathParam } from "@/lib/http/params";
import { CACHE } from "@/lib/http/response";
import { getOffer } from "@/lib/queries/offers";
import { database, route } from "@/lib/runtime";

export const dynamic = "force-dynamic";

const pdaParam = address("pda");

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1/offers/[pda]", async (_request, _url, params) => {
  const pda = parsePathParam("pda", String(params.pda), pdaParam);
  const offer = await getOffer(database(), pda);
  if (offer === undefined) throw notFound(`offer ${pda} is unknown to the indexer`);
  return { body: { text: offer }, cache: CACHE.offer };
});
