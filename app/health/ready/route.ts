import { databaseReadiness } from "@/lib/db/readiness";
import { database } from "@/web/services";

export const dynamic = "force-dynamic";

const NO_STORE = { "cache-control": "no-store" };

/** Readiness: the database answers and has this build's migrations; 503 with retry-after otherwise. */
export async function GET(): Promise<Response> {
  let readiness;
  try {
    readiness = await databaseReadiness(database());
  } catch {
    readiness = { ready: false as const, reason: "the database is not configured" };
  }
  if (readiness.ready) return Response.json({ ready: true }, { headers: NO_STORE });
  return Response.json(
    { ready: false, error: readiness.reason, code: "unavailable" },
    { status: 503, headers: { ...NO_STORE, "retry-after": "5" } },
  );
}
