import { describe, expect, it } from "vitest";
import { formatDecimal, parseDecimal, pow10, reciprocal, RECIPROCAL_SIGNIFICANT_DIGITS, shiftDecimal } from "../../lib/program/decimal";

// The chart options' arithmetic (GET /v1/candles units=human, invert=true):
// a shift is exact; a reciprocal is the one rounding, to 18 significant
// digits, half away from zero.

const outcome = <T>(f: () => T): T | string => {
  try {
    return f();
  } catch (error) {
    return `throws ${(error as Error).message}`;
  }
};

/** Signs, zeros, points, whitespace and what is not a decimal at all. */
const TEXTS = ["0", "00", "0.0", ".5", "5.", "-0", "+0", "-0.000", "  12.50 ", "-.5", "+1.2300", "1000", "0.000100", ".", "", "-", "1e5", "1.2.3", "--1", "1-", " ", "1 2"];
for (const whole of ["", "0", "7", "100", "0070", "18446744073709551615"]) {
  for (const fraction of [undefined, "", "0", "5", "050", "000001", "123456789012345678"]) {
    for (const sign of ["", "-", "+"]) TEXTS.push(`${sign}${whole}${fraction === undefined ? "" : `.${fraction}`}`);
  }
}

describe("shiftDecimal", () => {
  it.each([
    ["0.185", 3, "185"],
    ["2500000000", -9, "2.5"],
    ["1000000001", -9, "1.000000001"],
    ["0", -6, "0"],
    ["18446744073709551615", -6, "18446744073709.551615"],
    ["1.999999999", 12, "1999999999000"],
  ])("%s × 10^%i = %s", (text, places, expected) => {
    expect(shiftDecimal(text, places)).toBe(expected);
  });

  // It moves the point as characters; the text is the one the parsed value formats to, errors included.
  it("writes what formatDecimal writes of the parsed value, for any sign, zeros and point", () => {
    const viaBigInt = (text: string, places: number) => {
      const d = parseDecimal(text);
      return formatDecimal({ mantissa: d.mantissa, exponent: d.exponent + places });
    };
    for (const text of TEXTS) {
      for (const places of [0, 1, -1, 3, -6, -9, 12, -18, 30, -30, 2.5]) {
        expect(outcome(() => shiftDecimal(text, places)), `${JSON.stringify(text)} × 10^${places}`).toBe(outcome(() => viaBigInt(text, places)));
      }
    }
  });
});

describe("parseDecimal and formatDecimal", () => {
  // A plain reading, for reference: the pattern, the digits joined, trailing zeros divided out.
  const reference = (text: string) => {
    const match = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text.trim());
    if (!match || (match[2] ?? "") + (match[3] ?? "") === "") throw new Error(`not a decimal number: "${text}"`);
    let mantissa = BigInt((match[2] ?? "") + (match[3] ?? ""));
    let exponent = 0 - (match[3] ?? "").length;
    if (mantissa === 0n) return { mantissa: 0n, exponent: 0 };
    while (mantissa % 10n === 0n) [mantissa, exponent] = [mantissa / 10n, exponent + 1];
    return { mantissa: match[1] === "-" ? -mantissa : mantissa, exponent };
  };

  it("read each text as its one normalized mantissa and exponent, and refuse what is not a decimal", () => {
    for (const text of TEXTS) expect(outcome(() => parseDecimal(text)), JSON.stringify(text)).toEqual(outcome(() => reference(text)));
  });

  it("write each value without an exponent, trailing zeros or a trailing point, whatever zeros its mantissa carries", () => {
    expect(formatDecimal({ mantissa: 0n, exponent: 5 })).toBe("0");
    expect(formatDecimal({ mantissa: 1500n, exponent: -3 })).toBe("1.5");
    expect(formatDecimal({ mantissa: -1500n, exponent: -5 })).toBe("-0.015");
    expect(formatDecimal({ mantissa: 1500n, exponent: 2 })).toBe("150000");
    expect(formatDecimal({ mantissa: 7n, exponent: -1 })).toBe("0.7");
    expect(formatDecimal({ mantissa: 123n, exponent: -1 })).toBe("12.3");
    expect(formatDecimal({ mantissa: 10n, exponent: -1 })).toBe("1");
  });
});

describe("reciprocal", () => {
  it("rounds to 18 significant digits by default", () => {
    expect(RECIPROCAL_SIGNIFICANT_DIGITS).toBe(18);
    expect(reciprocal("3")).toBe("0.333333333333333333");
    expect(reciprocal("0.3")).toBe("3.33333333333333333");
    expect(reciprocal("0.185")).toBe("5.40540540540540541");
    expect(reciprocal("190")).toBe("0.00526315789473684211");
  });

  it("is exact when the reciprocal is a short decimal, and rounds half away from zero", () => {
    expect(reciprocal("0.0004")).toBe("2500");
    expect(reciprocal("8")).toBe("0.125");
    expect(reciprocal("1")).toBe("1");
    expect(reciprocal("0.000000000000000001")).toBe("1000000000000000000");
    expect(reciprocal("8", 2)).toBe("0.13"); // 0.125 → 0.13
    expect(reciprocal("6", 1)).toBe("0.2"); // 0.1666… → 0.2
    expect(reciprocal("9.5", 1)).toBe("0.1"); // 0.105… → 0.1
  });

  it("stays within half a unit in the last place of the true value", () => {
    for (const x of ["7", "0.0013", "123456789.987654321", "18446744073709551615", "0.000000001"]) {
      const r = reciprocal(x);
      // |r·x − 1| ≤ ½·10^(1−18) relative: check with integers, r and x scaled to whole numbers.
      const [ri, rf = ""] = r.split(".");
      const [xi, xf = ""] = x.split(".");
      const product = BigInt(ri! + rf) * BigInt(xi! + xf);
      const one = 10n ** BigInt(rf.length + xf.length);
      const error = product > one ? product - one : one - product;
      expect(error * 2n * 10n ** 17n <= one, x).toBe(true);
    }
  });

  it("refuses zero", () => {
    expect(() => reciprocal("0")).toThrow(RangeError);
  });
});

describe("pow10", () => {
  it("is 10^n for the kept powers and past them alike, and refuses a negative or fractional n", () => {
    for (const n of [0, 1, 6, 9, 18, 127, 128, 200]) expect(pow10(n)).toBe(BigInt(`1${"0".repeat(n)}`));
    expect(() => pow10(-1)).toThrow(RangeError);
    expect(() => pow10(1.5)).toThrow(RangeError);
  });
});
