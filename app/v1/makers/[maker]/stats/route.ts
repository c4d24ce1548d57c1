import { address, parsePathParam, parseQuery } from "@/web/http/params";
import { makerStatsQuery } from "@/web/http/query-schemas";
import { CACHE } from "@/web/http/response";
import { makerStats } from "@/lib/db/reads/stats";
import { database, route } from "@/web/services";

export const dynamic = "force-dynamic";

const makerParam = address("maker");

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1/makers/[maker]/stats", async (_request, url, params) => {
  const maker = parsePathParam("maker", String(params.maker), makerParam);
  const { window } = parseQuery(url, makerStatsQuery);
  return { body: { text: await makerStats(database(), maker, window) }, cache: CACHE.maker };
});
