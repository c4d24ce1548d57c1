import { env } from "../../platform/env";
import { webMetrics } from "../../platform/metrics";
import { openFeedStream } from "../../lib/feed/stream";
import { clientKey } from "../http/api";
import type { ApiRequest, StreamReply } from "../http/endpoint";
import { ApiError } from "../http/errors";
import { eventId, type streamQuery } from "../http/query-schemas";
import { CORS_ORIGIN } from "../http/response";
import { processFeed, streamBacklog } from "../services";
import type { z } from "zod";

const lastEventId = eventId("Last-Event-ID");

const STREAM_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  // no-transform: no compression (it would buffer the stream), here or in a proxy.
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
  ...CORS_ORIGIN,
};

/** The resume point: the Last-Event-ID header (an EventSource reconnecting) wins over ?after=. */
function resumeAfter(request: ApiRequest, after: bigint | undefined): bigint | null {
  const header = request.headers.get("last-event-id")?.trim();
  if (!header) return after ?? null;
  const parsed = lastEventId.safeParse(header);
  if (!parsed.success) throw new ApiError("invalid_parameter", parsed.error.issues[0]!.message, "Last-Event-ID");
  return parsed.data;
}

/** GET /v1/stream: the live feed as Server-Sent Events, at most STREAM_MAX_PER_CLIENT open per client. */
export async function feedStream(query: z.output<typeof streamQuery>, request: ApiRequest): Promise<StreamReply> {
  const after = resumeAfter(request, query.after);
  if (request.method === "HEAD") return { stream: null, headers: STREAM_HEADERS };
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
  return { stream, headers: STREAM_HEADERS };
}
