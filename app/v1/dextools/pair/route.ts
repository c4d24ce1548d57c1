import { dexPairQuery } from "@/web/http/adapter-query-schemas";
import { dexToolsErrorShape } from "@/web/http/adapter-errors";
import { notFound } from "@/web/http/errors";
import { parseQuery } from "@/web/http/params";
import { CACHE } from "@/web/http/response";
import { readDexPair } from "@/lib/adapters/dextools";
import { database, route } from "@/web/services";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route(
  "/v1/dextools/pair",
  async (_request, url) => {
    const { id } = parseQuery(url, dexPairQuery);
    const pair = await readDexPair(database(), id);
    if (!pair) throw notFound("no offer was ever made on this pair");
    return { body: { value: { pair } }, cache: CACHE.markets };
  },
  { errorShape: dexToolsErrorShape },
);
