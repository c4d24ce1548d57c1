import { CACHE } from "@/web/http/response";
import { listMarkets } from "@/lib/db/reads/markets";
import { database, route } from "@/web/services";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1/markets", async () => ({
  body: { text: await listMarkets(database()) },
  cache: CACHE.markets,
}));
