import { afterEach, describe, expect, it } from "vitest";
import { firstLineOf, gateConsole, messageKind } from "../../platform/console-gate";

const original = { error: console.error, warn: console.warn };
afterEach(() => Object.assign(console, original));

describe("the console gate", () => {
  it("writes one line per kind per interval, then says how many it held back", () => {
    const lines: Array<[unknown, string]> = [];
    let t = 0;
    const logger = { error: (fields: unknown, line: string) => void lines.push([fields, line]), warn: () => {} };
    gateConsole(logger as never, 60_000, () => t);
    for (let i = 0; i < 50; i++) console.error(new Error(`Failed to find Server Action "${i}abc"`));
    console.error("another cause");
    expect(lines).toEqual([
      [{ source: "console", suppressed: 0 }, 'Error: Failed to find Server Action "0abc"'],
      [{ source: "console", suppressed: 0 }, "another cause"],
    ]);
    t = 60_000;
    console.error(new Error('Failed to find Server Action "x"'));
    expect(lines[2]).toEqual([{ source: "console", suppressed: 49 }, 'Error: Failed to find Server Action "x"']);
  });

  it("keeps the first line of an error, never its stack", () => {
    const error = new Error('Failed to find Server Action "00abab". This request might be from an older or newer deployment.');
    expect(firstLineOf([error])).toBe('Error: Failed to find Server Action "00abab". This request might be from an older or newer deployment.');
    expect(firstLineOf(["\n  ⨯ %s", "boom\n    at x (y.js:1:2)"])).toBe("⨯ boom");
  });

  it("gives one kind to one cause with different ids, values and numbers", () => {
    const a = messageKind('Error: Failed to find Server Action "00abababab". This request might be from an older deployment.');
    const b = messageKind('Error: Failed to find Server Action "7f3c2d". This request might be from an older deployment.');
    expect(a).toBe(b);
    expect(messageKind("Error: The Server Reference ID did not match the expected format. Received 'x1'.")).not.toBe(a);
    expect(messageKind("timeout after 3000 ms")).toBe(messageKind("timeout after 12 ms"));
  });
});
