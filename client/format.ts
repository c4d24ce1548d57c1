import { formatDecimal, parseDecimal, pow10 } from "../lib/program/decimal";
import { formatUnits } from "../lib/program/units";

// Display formatting over exact decimal strings. Everything here works on the
// digits (bigint mantissa and exponent), so a raw u64 amount is never a float.

/** Rounds an exact decimal string half away from zero to at most `places` fractional digits. */
export function roundDecimal(exact: string, places: number): string {
  const d = parseDecimal(exact);
  if (-d.exponent <= places) return formatDecimal(d);
  const divisor = pow10(-d.exponent - places);
  const negative = d.mantissa < 0n;
  const magnitude = negative ? -d.mantissa : d.mantissa;
  let q = magnitude / divisor;
  if ((magnitude % divisor) * 2n >= divisor) q += 1n;
  return formatDecimal({ mantissa: negative ? -q : q, exponent: -places });
}

/** "1234567.5" -> "1,234,567.5". */
export function groupThousands(exact: string): string {
  const negative = exact.startsWith("-");
  const body = negative ? exact.slice(1) : exact;
  const [whole = "0", fraction] = body.split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${negative ? "-" : ""}${grouped}${fraction ? `.${fraction}` : ""}`;
}

const COMPACT = [
  { digits: 12, suffix: "T" },
  { digits: 9, suffix: "B" },
  { digits: 6, suffix: "M" },
] as const;

/** Leading zeros after the point of a value below one: "0.000123" -> 3. */
function leadingFractionZeros(exact: string): number {
  const fraction = exact.replace(/^-?0\./, "");
  const match = /^0*/.exec(fraction);
  return match ? match[0].length : 0;
}

export interface DisplayOptions {
  /** Millions and above as 1.23M (the exact value stays in the title). Default true. */
  compact?: boolean;
  /** Significant digits kept for values below one. Default 4. */
  smallSignificant?: number;
}

/**
 * A human-readable rendering of an exact decimal string: thousands separators,
 * fewer fractional digits as the value grows, compact suffixes for millions.
 */
export function displayDecimal(exact: string, options: DisplayOptions = {}): string {
  const { compact = true, smallSignificant = 4 } = options;
  const d = parseDecimal(exact);
  if (d.mantissa === 0n) return "0";
  const negative = d.mantissa < 0n;
  const abs = negative ? exact.slice(1) : exact;
  const whole = abs.split(".")[0] ?? "0";
  let text: string;
  if (compact && whole.length > 6) {
    const unit = COMPACT.find((u) => whole.length > u.digits) ?? COMPACT[2];
    const scaled = formatDecimal({ mantissa: parseDecimal(abs).mantissa, exponent: parseDecimal(abs).exponent - unit.digits });
    text = `${groupThousands(roundDecimal(scaled, 2))}${unit.suffix}`;
  } else if (whole.length >= 4) text = groupThousands(roundDecimal(abs, 2));
  else if (whole !== "0") text = groupThousands(roundDecimal(abs, 4));
  else {
    const rounded = roundDecimal(abs, leadingFractionZeros(abs) + smallSignificant);
    text = rounded === "0" ? `<${formatDecimal({ mantissa: 1n, exponent: -(leadingFractionZeros(abs) + smallSignificant) })}` : rounded;
  }
  return negative ? `-${text}` : text;
}

export interface FormattedAmount {
  /** What the cell shows. */
  text: string;
  /** The exact human value, grouped; null when decimals are unknown. */
  exact: string | null;
  /** The raw integer units, grouped. */
  raw: string;
  /** Decimals were unknown: `text` is raw units. */
  rawOnly: boolean;
}

/** A raw token amount in whole tokens; with unknown decimals, the raw units, marked as such. */
export function formatAmount(raw: string | bigint, decimals: number | null | undefined, options?: DisplayOptions): FormattedAmount {
  const rawText = typeof raw === "bigint" ? raw.toString() : raw;
  const rawGrouped = groupThousands(rawText);
  if (decimals === null || decimals === undefined) return { text: rawGrouped, exact: null, raw: rawGrouped, rawOnly: true };
  const exact = formatUnits(BigInt(rawText), decimals);
  return { text: displayDecimal(exact, options), exact: groupThousands(exact), raw: rawGrouped, rawOnly: false };
}

/** "7xKXtg2C…sgAsU": the first and last characters of a base58 string. */
export function shortAddress(address: string, head = 4, tail = 4): string {
  return address.length <= head + tail + 1 ? address : `${address.slice(0, head)}…${address.slice(-tail)}`;
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 31_536_000],
  ["month", 2_592_000],
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
  ["second", 1],
];

/** "3 min ago" / "in 2 days" relative to `now` (ms). */
export function relativeTime(iso: string, now: number): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 5) return "just now";
  const [unit, size] = UNITS.find(([, s]) => abs >= s) ?? UNITS[UNITS.length - 1]!;
  const rtf = new Intl.RelativeTimeFormat("en", { numeric: "auto", style: "short" });
  return rtf.format(Math.trunc(seconds / size), unit);
}

/** "2d 4h 12m" until `iso`, or null once it has passed. */
export function countdown(iso: string, now: number): string | null {
  let left = Math.floor((Date.parse(iso) - now) / 1000);
  if (left <= 0) return null;
  const days = Math.floor(left / 86_400);
  left -= days * 86_400;
  const hours = Math.floor(left / 3_600);
  left -= hours * 3_600;
  const minutes = Math.floor(left / 60);
  const seconds = left - minutes * 60;
  if (days > 0) return `${days}d ${hours}h ${minutes}m`;
  if (hours > 0) return `${hours}h ${minutes}m ${seconds}s`;
  return `${minutes}m ${seconds}s`;
}

/** "2026-06-01 14:03:22 UTC": stable across time zones, so server and client render alike. */
export function utcTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

// Provider figures (USD prices, volumes, holders) are floats already. They are
// formatted by hand, not with Intl, so Node and the browser (different ICU
// data) write the same text and hydration matches.

const trimZeros = (fixed: string) => (fixed.includes(".") ? fixed.replace(/\.?0+$/, "") : fixed);

const SCALES: [number, string][] = [
  [1e12, "T"],
  [1e9, "B"],
  [1e6, "M"],
  [1e3, "K"],
];

function compactNumber(abs: number, from: number): string | null {
  if (abs < from) return null;
  const [size, suffix] = SCALES.find(([s]) => abs >= s) ?? SCALES[SCALES.length - 1]!;
  return `${trimZeros((abs / size).toFixed(2))}${suffix}`;
}

export function formatUsd(value: number | null, options: { compact?: boolean } = {}): string {
  if (value === null || !Number.isFinite(value)) return "—";
  const abs = Math.abs(value);
  const sign = value < 0 ? "-" : "";
  const compact = options.compact !== false ? compactNumber(abs, 10_000) : null;
  if (compact) return `${sign}$${compact}`;
  if (abs >= 1) return `${sign}$${groupThousands(abs.toFixed(2))}`;
  if (abs >= 0.01) return `${sign}$${trimZeros(abs.toFixed(4))}`;
  if (abs === 0) return "$0";
  return `${sign}$${trimZeros(abs.toPrecision(4))}`;
}

export function formatCount(value: number | null): string {
  if (value === null || !Number.isFinite(value)) return "—";
  return compactNumber(Math.abs(value), 1_000_000) ?? groupThousands(String(Math.round(value)));
}

export function formatPercent(value: number | null, digits = 2): string {
  if (value === null || !Number.isFinite(value)) return "—";
  const fixed = value.toFixed(digits);
  if (Number(fixed) === 0) return `${(0).toFixed(digits)}%`;
  return `${value > 0 ? "+" : ""}${fixed}%`;
}
