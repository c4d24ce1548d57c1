import { CACHE } from "@/web/http/response";
import { protocolStats } from "@/lib/db/reads/stats";
import { database, route } from "@/web/services";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1/stats", async () => ({
  body: { text: await protocolStats(database()) },
  cache: CACHE.stats,
}));
