import { docsAsset } from "@/web/http/docs";
import { ifNoneMatchHits } from "@/web/http/response";

export const dynamic = "force-dynamic";

// The /docs page's own files. Their URLs carry the renderer's version, so a
// browser keeps them until the next upgrade.
const CACHE = "public, max-age=31536000, immutable";

export async function GET(request: Request, { params }: { params: Promise<{ file: string }> }): Promise<Response> {
  const asset = docsAsset((await params).file);
  if (!asset) return new Response("not found\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  const headers = { "content-type": asset.type, "cache-control": CACHE, etag: asset.etag };
  if (ifNoneMatchHits(request.headers.get("if-none-match"), asset.etag)) return new Response(null, { status: 304, headers });
  return new Response(asset.body, { headers });
}
