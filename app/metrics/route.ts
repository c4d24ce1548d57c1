import { connectionsByState } from "@/lib/db/readiness";
import { scrape } from "@/platform/metrics";
import { database, WEB_APPLICATION_NAME } from "@/web/services";
import { env } from "@/platform/env";

export const dynamic = "force-dynamic";

/** Prometheus exposition of this web process (platform/metrics.ts). */
export async function GET(): Promise<Response> {
  const { contentType, text } = await scrape({
    poolMax: env().DATABASE_POOL_SIZE,
    connectionsByState: () => connectionsByState(database(), WEB_APPLICATION_NAME),
  });
  return new Response(text, { headers: { "content-type": contentType, "cache-control": "no-store" } });
}
