import { DOCS_CSP, docsPage } from "@/web/http/docs";

export const dynamic = "force-dynamic";

// The API reference (web/http/docs.ts): a route handler of its own, so the
// renderer loads on this page only, never in the explorer's bundles.
export function GET(): Response {
  return new Response(docsPage(), {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "public, max-age=300",
      "content-security-policy": DOCS_CSP,
    },
  });
}
