import { U64_MAX } from "../../lib/program/constants";

/** pricePerToken, priceScale and the exact price string (tests/unit/price-string.test.ts, tests/integration/api/candles.test.ts). */
export const PRICE_CASES: Array<[bigint, number, string]> = [
  [2_500_000n, 6, "2.5"],
  [1_000_000n, 6, "1"],
  [100n, 0, "100"],
  [120n, 1, "12"],
  [0n, 9, "0"],
  [1n, 18, "0.000000000000000001"],
  [7n, 1, "0.7"],
  [10n, 1, "1"],
  [1_230_000_000n, 4, "123000"],
  [U64_MAX, 0, "18446744073709551615"],
  [U64_MAX, 18, "18.446744073709551615"],
  [U64_MAX, 30, "0.000000000018446744073709551615"],
];
