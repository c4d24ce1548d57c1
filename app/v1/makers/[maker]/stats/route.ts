import { address, parsePathParam } from "@/lib/http/params";
import { CACHE } from "@/lib/http/response";
import { makerStats } from "@/lib/queries/stats";
import { database, route } from "@/lib/runtime";

export const dynamic = "force-dynamic";

const makerParam = address("maker");

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1/makers/[maker]/stats", async (_request, _url, params) => {
  const maker = parsePathParam("maker", String(params.maker), makerParam);
  return { body: { text: await makerStats(database(), maker) }, cache: CACHE.maker };
});
