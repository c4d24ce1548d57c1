import { dexToolsErrorShape } from "@/web/http/adapter-errors";
import { notFound } from "@/web/http/errors";
import { CACHE } from "@/web/http/response";
import { latestDexBlock } from "@/lib/adapters/dextools";
import { database, route } from "@/web/services";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route(
  "/v1/dextools/latest-block",
  async () => {
    const block = await latestDexBlock(database());
    if (!block) throw notFound("no block is announced yet: the index has no final, complete slot with program activity");
    return { body: { value: { block } }, cache: CACHE.offer };
  },
  { errorShape: dexToolsErrorShape },
);
