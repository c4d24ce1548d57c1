export const dynamic = "force-dynamic";

/** Liveness: the process serves. Cheap, and blind to the database on purpose (a restart would not fix it). */
export function GET(): Response {
  return Response.json({ ok: true }, { headers: { "cache-control": "no-store" } });
}
