import { z } from "zod";
import { ApiError } from "./errors";
import type { ApiRequest, StreamReply } from "./endpoint";
import { CORS_ORIGIN } from "./response";

// CSV exports of the lists (/v1/fills, /v1/offers, /v1/wallets/:address/trades):
// asked for with format=csv or `Accept: text/csv`, answered as a stream of
// lines that the reads make one cursor batch at a time (lib/db/reads/csv.ts).

/** `format` on the exportable lists; it wins over the Accept header. */
export const format = z
  .enum(["json", "csv"], { message: "format must be json or csv" })
  .optional()
  .meta({ description: "csv: every row the filters select, from `cursor` on, streamed as CSV (see docs/api.md#csv-exports); json (default) a page", example: "csv" });

/** The q of each media range an Accept header names (RFC 9110 12.5.1), 1 when unsaid. */
function acceptQualities(accept: string): Map<string, number> {
  const qualities = new Map<string, number>();
  for (const range of accept.split(",")) {
    const [type = "", ...params] = range.split(";").map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith("q="));
    const value = q === undefined ? 1 : Number(q.slice(2));
    if (type) qualities.set(type, Number.isFinite(value) ? value : 0);
  }
  return qualities;
}

/**
 * Whether the request asks for CSV: format=csv; without format, an Accept
 * header that names text/csv (q above 0) no lower than application/json.
 */
export function wantsCsv(request: Pick<ApiRequest, "headers">, chosen: "json" | "csv" | undefined): boolean {
  if (chosen !== undefined) return chosen === "csv";
  const accept = request.headers.get("accept");
  if (accept === null) return false;
  const q = acceptQualities(accept);
  const csv = q.get("text/csv") ?? 0;
  return csv > 0 && csv >= (q.get("application/json") ?? 0);
}

/** An export is every row from the cursor on: a page size or an offset would only mislead. */
export function checkCsvPage(url: URL): void {
  for (const param of ["limit", "offset"]) {
    if (url.searchParams.get(param)) {
      throw new ApiError("invalid_parameter", `${param} does not apply to a CSV export, which streams every row from cursor on; narrow it with the filters`, param);
    }
  }
}

/**
 * The export's answer, a stream for the route table (web/api/routes.ts); the
 * budget and its headers are the API core's (web/http/api.ts). The header row
 * and the first batch are read before answering, so a failure to start (the
 * database unreachable) is still the JSON error with its status; later
 * batches are read as the client takes them (the stream pulls), and a client
 * that leaves closes the cursor.
 */
export async function csvReply(request: Pick<ApiRequest, "method">, filename: string, lines: AsyncGenerator<Uint8Array>): Promise<StreamReply> {
  const headers = {
    "content-type": "text/csv; charset=utf-8",
    "content-disposition": `attachment; filename="${filename}"`,
    "cache-control": "no-store",
    // Accept-Encoding as Next's compression adds it, so that both servers send the same Vary.
    vary: "accept, Accept-Encoding",
    ...CORS_ORIGIN,
  };
  // HEAD: the headers alone, without opening a cursor that no one would read.
  if (request.method === "HEAD") {
    await lines.return(undefined);
    return { stream: null, headers };
  }
  const first: Uint8Array[] = [];
  for (let i = 0; i < 2; i++) {
    const next = await lines.next();
    if (next.done) break;
    first.push(next.value);
  }
  // Byte chunks, as PostgreSQL rendered them (lib/db/reads/csv.ts).
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(Buffer.concat(first));
    },
    async pull(controller) {
      const next = await lines.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
  return { stream: body, headers };
}
