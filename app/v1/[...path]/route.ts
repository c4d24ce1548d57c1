import { notFound } from "@/web/http/errors";
import { route } from "@/web/services";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1/[...path]", async (_request, url) => {
  throw notFound(`no endpoint at ${url.pathname}; see GET /v1 for the list`);
});
