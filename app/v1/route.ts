import { CACHE } from "@/lib/http/response";
import { route } from "@/lib/runtime";

export const dynamic = "force-dynamic";

const ENDPOINTS = [
  "GET /v1/offers",
  "GET /v1/offers/:pda",
  "GET /v1/offers/:pda/fills",
  "GET /v1/fills",
  "GET /v1/makers/:maker/stats",
  "GET /v1/makers/:maker/offers",
  "GET /v1/stats",
  "GET /v1/tokens?mints=",
  "GET /v1/trending",
  "GET /v1/markets (extension: pairs with open offers or recent fills)",
  "GET /v1/stream (extension: Server-Sent Events of fills, offer changes and revokes)",
];

// A constant document: serialised once, not per request.
const INDEX = JSON.stringify({ version: "v1", endpoints: ENDPOINTS });

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1", async () => ({ body: { text: INDEX }, cache: CACHE.index }));
