// The makers' windows (/v1/makers, /v1/makers/:maker/stats), read from
// maker_activity's buckets (lib/db/schema/makers.ts). A window is whole
// UTC-aligned buckets ending with the current one: 24h is the current hour
// and the 23 before it, 7d and 30d the current UTC day and the 6 or 29
// before it, all the one all-time bucket. So a window starts on a bucket's
// edge and covers up to one bucket more than its name at the end of a bucket.

export const MAKER_WINDOWS = {
  "24h": { resolution: 3600, buckets: 24 },
  "7d": { resolution: 86400, buckets: 7 },
  "30d": { resolution: 86400, buckets: 30 },
  all: { resolution: 0, buckets: 1 },
} as const;

export type MakerWindow = keyof typeof MAKER_WINDOWS;
export const MAKER_WINDOW_NAMES = Object.keys(MAKER_WINDOWS) as [MakerWindow, ...MakerWindow[]];

/**
 * SQL conditions over a row `alias` of maker_activity for `window`, with
 * the resolution and bucket count inlined (constants of the table above).
 * The start is computed by PostgreSQL from its own now().
 */
export function windowCondition(window: MakerWindow, alias: string): string {
  const { resolution, buckets } = MAKER_WINDOWS[window];
  // The all-time rows' one bucket too, so their range of the primary key reads in maker order (a streaming group by maker).
  if (resolution === 0) return `${alias}.resolution = 0 and ${alias}.bucket = '-infinity'`;
  return `${alias}.resolution = ${resolution} and ${alias}.bucket >= maker_activity_bucket(${resolution}, now()) - interval '${(buckets - 1) * resolution} seconds'`;
}
