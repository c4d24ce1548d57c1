import { nextRoute } from "@/web/api/next-route";

export const dynamic = "force-dynamic";

// The endpoint is declared in web/api/adapter-routes.ts; the web launcher serves it from there without Next.
export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = nextRoute("/v1/dextools/events");
