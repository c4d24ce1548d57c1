import { parseQuery } from "@/web/http/params";
import { bookQuery } from "@/web/http/query-schemas";
import { CACHE } from "@/web/http/response";
import { readBook } from "@/lib/db/reads/book";
import { database, route } from "@/web/services";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1/book", async (_request, url) => {
  const query = parseQuery(url, bookQuery);
  return { body: { text: await readBook(database(), query) }, cache: CACHE.list };
});
