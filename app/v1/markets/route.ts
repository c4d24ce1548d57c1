import { CACHE } from "@/lib/http/response";
import { listMarkets } from "@/lib/queries/markets";
import { database, route } from "@/lib/runtime";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1/markets", async () => ({
  body: { text: await listMarkets(database()) },
  cache: CACHE.markets,
}));
