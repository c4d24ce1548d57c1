import { parseQuery } from "@/web/http/params";
import { checkMakerSort, checkPage, makerLeaderboardQuery } from "@/web/http/query-schemas";
import { CACHE } from "@/web/http/response";
import { listMakerLeaderboard } from "@/lib/db/reads/makers";
import { database, route } from "@/web/services";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1/makers", async (_request, url) => {
  const query = parseQuery(url, makerLeaderboardQuery);
  checkPage(query);
  checkMakerSort(query);
  return { body: { text: await listMakerLeaderboard(database(), query) }, cache: CACHE.maker };
});
