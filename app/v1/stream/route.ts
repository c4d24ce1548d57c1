import { env } from "@/platform/env";
import { processFeed } from "@/web/services";
import { openFeedStream } from "@/lib/feed/stream";
import { ApiError } from "@/web/http/errors";
import { parseQuery } from "@/web/http/params";
import { eventId, streamQuery } from "@/web/http/query-schemas";
import { CORS_ORIGIN } from "@/web/http/response";
import { clientKey } from "@/web/http/route";
import { webMetrics } from "@/platform/metrics";
import { route, streamBacklog } from "@/web/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const lastEventId = eventId("Last-Event-ID");

const STREAM_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  // no-transform: the compression middleware leaves the stream alone (it would buffer it).
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
  ...CORS_ORIGIN,
};

/** The resume point: the Last-Event-ID header (an EventSource reconnecting) wins over ?after=. */
function resumeAfter(request: Request, after: bigint | undefined): bigint | null {
  const header = request.headers.get("last-event-id")?.trim();
  if (!header) return after ?? null;
  const parsed = lastEventId.safeParse(header);
  if (!parsed.success) throw new ApiError("invalid_parameter", parsed.error.issues[0]!.message, "Last-Event-ID");
  return parsed.data;
}

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1/stream", async (request, url) => {
  const query = parseQuery(url, streamQuery);
  const after = resumeAfter(request, query.after);
  if (request.method === "HEAD") return new Response(null, { headers: STREAM_HEADERS });
  const config = env();
  const { hub, slots } = processFeed();
  const client = clientKey(request, config.TRUST_PROXY);
  if (!slots.take(client)) {
    throw new ApiError("rate_limited", `too many open streams from this client (at most ${config.STREAM_MAX_PER_CLIENT}): close one first`, undefined, {
      "retry-after": "5",
    });
  }
  let stream: ReadableStream<Uint8Array>;
  try {
    stream = await openFeedStream(hub, streamBacklog(), {
      filter: { types: query.types, tokenMint: query.tokenMint, paymentMint: query.paymentMint, maker: query.maker, offerPda: query.offerPda },
      after,
      retryMs: config.STREAM_RETRY_MS,
      heartbeatMs: config.STREAM_HEARTBEAT_MS,
      queueBytes: config.STREAM_QUEUE_BYTES,
      stallMs: config.STREAM_STALL_MS,
      signal: request.signal,
      onClose: (reason) => {
        slots.release(client);
        webMetrics().streamsOpen.dec();
        if (reason === "cut_off") webMetrics().streamCutOffs.inc();
      },
    });
    webMetrics().streamsOpen.inc();
  } catch (error) {
    slots.release(client);
    throw error;
  }
  return new Response(stream, { headers: STREAM_HEADERS });
});
