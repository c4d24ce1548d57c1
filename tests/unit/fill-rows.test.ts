import { describe, expect, it } from "vitest";
import { shareFillRows } from "../../client/fill-rows";

// React Query's structural sharing for fill lists (client/fill-rows.ts): a fill
// merged in at the top keeps the other rows' objects, so their table rows do not draw again.

const fill = (signature: string, fillAmount = "1") => ({ signature, ixIndex: 0, fillAmount });
const list = (...fills: ReturnType<typeof fill>[]) => ({ fills, limit: 50, nextCursor: null });

describe("shareFillRows: a fill list's unchanged rows stay the same objects", () => {
  it("a fill merged in at the top leaves every other row the old object (index-based sharing would copy them all)", () => {
    const before = list(fill("a"), fill("b"));
    const after = shareFillRows(before, list(fill("n"), fill("a"), fill("b"))) as typeof before;
    expect(after.fills[1]).toBe(before.fills[0]);
    expect(after.fills[2]).toBe(before.fills[1]);
    expect(after.fills[0]?.signature).toBe("n");
  });

  it("a refetch that returns the same list returns the old list itself", () => {
    const before = list(fill("a"), fill("b"));
    expect(shareFillRows(before, list(fill("a"), fill("b")))).toBe(before);
  });

  it("a row whose fields changed is the new row; a changed cursor is a new list", () => {
    const before = list(fill("a"), fill("b"));
    const after = shareFillRows(before, list(fill("a", "2"), fill("b"))) as typeof before;
    expect(after.fills[0]?.fillAmount).toBe("2");
    expect(after.fills[1]).toBe(before.fills[1]);
    const paged = shareFillRows(before, { ...list(fill("a"), fill("b")), nextCursor: "c" });
    expect(paged).not.toBe(before);
  });

  it("without an old list the new one is taken as it is", () => {
    const next = list(fill("a"));
    expect(shareFillRows(undefined, next)).toBe(next);
  });
});
