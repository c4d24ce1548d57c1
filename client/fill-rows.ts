import type { Fill } from "./types";

// A fill list's rows keep their objects across updates: React Query's default
// structural sharing matches an array by index, so one fill merged in at the
// top (a live event, or a refetch with a new fill) makes every row after it a
// new object, and every row of the table draws again. Matched by the fill's
// key instead, a row whose fields are unchanged stays the same object.

type FillRowKey = Pick<Fill, "signature" | "ixIndex">;

/** A fill's identity in a list: its transaction and instruction. */
export const fillKey = (f: FillRowKey) => `${f.signature}/${f.ixIndex ?? 0}`;

type Fields = Record<string, unknown>;

const sameFields = (a: Fields, b: Fields, skip?: string) => {
  const keys = Object.keys(a).filter((k) => k !== skip);
  return keys.length === Object.keys(b).filter((k) => k !== skip).length && keys.every((k) => a[k] === b[k]);
};

/**
 * React Query's `structuralSharing` for a list of fills (`{ fills, ... }` with
 * flat rows): the old list when nothing changed, else the new one with each
 * unchanged row the old row object.
 */
export function shareFillRows(old: unknown, next: unknown): unknown {
  const before = old as { fills?: readonly (FillRowKey & Fields)[] } | undefined;
  const after = next as ({ fills?: readonly (FillRowKey & Fields)[] } & Fields) | undefined;
  if (!before?.fills || !after?.fills) return next;
  const byKey = new Map(before.fills.map((row) => [fillKey(row), row]));
  const fills = after.fills.map((row) => {
    const kept = byKey.get(fillKey(row));
    return kept && sameFields(kept, row) ? kept : row;
  });
  const unchanged = fills.length === before.fills.length && fills.every((row, i) => row === before.fills?.[i]) && sameFields(before as Fields, after, "fills");
  return unchanged ? old : { ...after, fills };
}
