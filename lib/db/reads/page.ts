import type postgres from "postgres";

export interface PageParams {
  limit: number;
  offset: number;
  cursor?: string;
}

/** Joins conditions with AND; an empty list is true. */
export function and(sql: postgres.Sql, conditions: postgres.PendingQuery<postgres.Row[]>[]) {
  if (conditions.length === 0) return sql`true`;
  return conditions.reduce((all, next) => sql`${all} and ${next}`);
}

/** A list response's JSON text, assembled around the rows PostgreSQL already serialized. */
export function listBody(key: string, itemsJson: string, page: PageParams, nextCursor: string | null): string {
  const cursor = nextCursor === null ? "null" : JSON.stringify(nextCursor);
  return `{"${key}":${itemsJson},"limit":${page.limit},"offset":${page.offset},"nextCursor":${cursor}}`;
}
