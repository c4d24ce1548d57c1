import { queryString } from "./api";

// The /fills page's filters, as they live in its URL (the same names as /v1/fills).

export const FILTER_KEYS = ["tokenMint", "paymentMint", "maker", "taker", "fromTime", "toTime"] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];
export type FillFilterValues = Partial<Record<FilterKey, string>> & { cursor?: string };

const ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const UNIX = /^\d{1,12}$/;

export interface ParsedFilters {
  values: FillFilterValues;
  /** The filters fit to send to /v1/fills. */
  query: { tokenMint?: string; paymentMint?: string; maker?: string; taker?: string; fromTime?: number; toTime?: number; cursor?: string };
  /** One message per value that cannot be a filter (it is left out of the query). */
  problems: string[];
}

export function parseFillFilters(search: Record<string, string | string[] | undefined>): ParsedFilters {
  const values: FillFilterValues = {};
  const query: ParsedFilters["query"] = {};
  const problems: string[] = [];
  for (const key of FILTER_KEYS) {
    const raw = search[key];
    const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
    if (!value) continue;
    values[key] = value;
    if (key === "fromTime" || key === "toTime") {
      if (UNIX.test(value)) query[key] = Number(value);
      else problems.push(`${key} must be unix seconds`);
    } else if (ADDRESS.test(value)) query[key] = value;
    else problems.push(`${key} is not a base58 address`);
  }
  if (query.fromTime !== undefined && query.toTime !== undefined && query.fromTime > query.toTime) {
    problems.push("the time range ends before it starts");
    delete query.fromTime;
    delete query.toTime;
  }
  const cursor = search.cursor;
  if (typeof cursor === "string" && /^[A-Za-z0-9_-]{1,200}$/.test(cursor)) {
    values.cursor = cursor;
    query.cursor = cursor;
  }
  return { values, query, problems };
}

export function fillsHref(values: FillFilterValues): string {
  return `/fills${queryString(values)}`;
}

/** A datetime-local input's value (read as UTC) to unix seconds, and back. */
export function utcInputToUnix(value: string): string {
  if (!value) return "";
  const ms = Date.parse(value.length === 16 ? `${value}:00Z` : `${value}Z`);
  return Number.isFinite(ms) ? String(Math.floor(ms / 1000)) : "";
}

export function unixToUtcInput(value: string | undefined): string {
  if (!value || !UNIX.test(value)) return "";
  return new Date(Number(value) * 1000).toISOString().slice(0, 16);
}
