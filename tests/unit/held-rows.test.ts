import { describe, expect, it } from "vitest";
import { holdRows, sameRows } from "../../client/held-rows";

// The rows a live list shows while the reader looks at it, and the count on its
// "N new" pill (components/live/held-rows.tsx): new rows wait, counted once.

const key = (row: { id: string }) => row.id;
const rows = (...ids: string[]) => ids.map((id) => ({ id }));

describe("holdRows: the rows a reader has, and how many wait", () => {
  it("rows that arrived at the top since the reader's last look wait; the rows on screen stay in their order", () => {
    const { shown, waiting } = holdRows(rows("n2", "n1", "a", "b", "c"), key, new Set(["a", "b", "c"]));
    expect(shown.map(key)).toEqual(["a", "b", "c"]);
    expect(waiting).toBe(2);
  });

  it("a fill delivered twice is one waiting row, not two", () => {
    expect(holdRows(rows("n1", "n1", "a"), key, new Set(["a"])).waiting).toBe(1);
  });

  it("a waiting row that is rolled back (gone from the list) is no longer counted; a shown one leaves the rows", () => {
    const { shown, waiting } = holdRows(rows("n2", "b"), key, new Set(["a", "b"]));
    expect(shown.map(key)).toEqual(["b"]);
    expect(waiting).toBe(1);
  });

  it("nothing waits once the reader has seen every row", () => {
    expect(holdRows(rows("a", "b"), key, new Set(["a", "b"]))).toEqual({ shown: rows("a", "b"), waiting: 0 });
  });
});

describe("sameRows: whether a held event leaves the reader's rows as they were (so the table keeps its array)", () => {
  it("a new row waiting leaves the shown rows the same row objects, though the arrays differ", () => {
    const list = rows("a", "b");
    const [a, b] = list as [{ id: string }, { id: string }];
    const afterEvent = holdRows([{ id: "n1" }, a, b], key, new Set(["a", "b"])).shown;
    expect(afterEvent).not.toBe(list);
    expect(sameRows(list, afterEvent)).toBe(true);
  });

  it("a shown row added, removed or replaced by an equal copy is a change", () => {
    const list = rows("a", "b");
    expect(sameRows(list, [...list, { id: "c" }])).toBe(false);
    expect(sameRows(list, list.slice(1))).toBe(false);
    expect(sameRows(list, rows("a", "b"))).toBe(false);
  });
});
