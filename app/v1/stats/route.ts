import { CACHE } from "@/lib/http/response";
import { protocolStats } from "@/lib/queries/stats";
import { database, route } from "@/lib/runtime";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1/stats", async () => ({
  body: { text: await protocolStats(database()) },
  cache: CACHE.stats,
}));
