import { Keypair, PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import {
  checkCreateOffer,
  checkExpireOffer,
  checkTakeOffer,
  createOfferAddress,
  exactSizeStep,
  feeAmount,
  findOfferAddress,
  formatUnits,
  humanPrice,
  offerStatus,
  parseUnits,
  paymentAmount,
  scaledPriceFromHuman,
  smallestExactScale,
  takeAmounts,
  U64_MAX,
  type CreateOfferArgs,
} from "../../lib/program";

const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";

describe("take arithmetic", () => {
  it("floors the payment", () => {
    expect(paymentAmount(3n, 1n, 0)).toBe(3n);
    expect(paymentAmount(7n, 125n, 3)).toBe(0n); // 0.875
    expect(paymentAmount(8n, 125n, 3)).toBe(1n);
    expect(paymentAmount(15n, 125n, 3)).toBe(1n); // 1.875
  });

  it("handles scale 0 and scale 18", () => {
    expect(paymentAmount(1_000_000n, 2_500_000n, 0)).toBe(2_500_000_000_000n);
    expect(paymentAmount(1_000_000_000_000_000_000n, 1n, 18)).toBe(1n);
    expect(paymentAmount(999_999_999_999_999_999n, 1n, 18)).toBe(0n);
    expect(paymentAmount(3n, 333_333_333_333_333_334n, 18)).toBe(1n); // 1.000000000000000002
  });

  it("keeps u128 intermediates exact near 2^64", () => {
    // (2^64-1)^2 = 340282366920938463426481119284349108225; / 10^18, floored.
    expect(paymentAmount(U64_MAX, U64_MAX, 18)).toBe(340_282_366_920_938_463_426n);
    expect(paymentAmount(U64_MAX, U64_MAX, 0)).toBe(340_282_366_920_938_463_426_481_119_284_349_108_225n);
    expect(paymentAmount(U64_MAX, 1n, 0)).toBe(18_446_744_073_709_551_615n);
    // 2^64 - 1 times 3 / 10 = 5534023222112865484.5 -> floor
    expect(paymentAmount(U64_MAX, 3n, 1)).toBe(5_534_023_222_112_865_484n);
  });

  it("rounds the fee up", () => {
    expect(feeAmount(0n)).toBe(0n);
    expect(feeAmount(1n)).toBe(1n); // 0.002
    expect(feeAmount(499n)).toBe(1n); // 0.998
    expect(feeAmount(500n)).toBe(1n); // exactly 1
    expect(feeAmount(501n)).toBe(2n); // 1.002
    expect(feeAmount(1_000_000n)).toBe(2_000n);
    // 18446744073709551615 * 20 / 10000 = 36893488147419103.23
    expect(feeAmount(U64_MAX)).toBe(36_893_488_147_419_104n);
  });

  it("nets fee out of the payment", () => {
    expect(takeAmounts(2_000_000n, 1_500_000n, 6)).toEqual({
      fillAmount: 2_000_000n,
      paymentAmount: 3_000_000n,
      feeAmount: 6_000n,
      netAmount: 2_994_000n,
    });
    expect(takeAmounts(1n, 1n, 0)).toEqual({ fillAmount: 1n, paymentAmount: 1n, feeAmount: 1n, netAmount: 0n });
  });
});

describe("exact pricing", () => {
  it("chooses the smallest scale holding the price", () => {
    expect(smallestExactScale(8n, "0.125")).toEqual({ pricePerToken: 125n, priceScale: 3 });
    expect(smallestExactScale(10n, "1.50")).toEqual({ pricePerToken: 15n, priceScale: 1 });
    expect(smallestExactScale(1n, "100")).toEqual({ pricePerToken: 100n, priceScale: 0 });
    expect(smallestExactScale(10n ** 18n, "0.000000000000000001")).toEqual({ pricePerToken: 1n, priceScale: 18 });
  });

  it("is null when the total is inexact, the scale exceeds 18 or the price is not positive", () => {
    expect(smallestExactScale(3n, "0.125")).toBeNull();
    expect(smallestExactScale(10n ** 19n, "0.0000000000000000001")).toBeNull();
    expect(smallestExactScale(1n, "0")).toBeNull();
    expect(smallestExactScale(1n, "18446744073709551616")).toBeNull();
  });

  it("gives the size step at which totals are exact", () => {
    expect(exactSizeStep(125n, 3)).toBe(8n);
    expect(exactSizeStep(7n, 0)).toBe(1n);
    expect(exactSizeStep(1n, 18)).toBe(10n ** 18n);
    expect(exactSizeStep(5n * 10n ** 17n, 18)).toBe(2n);
  });

  it("converts a human price to raw units", () => {
    // 1.25 USDC (6) per JTO (9): 1.25e6 / 1e9 = 0.00125 raw per raw.
    expect(scaledPriceFromHuman("1.25", 9, 6)).toEqual({ pricePerToken: 125n, priceScale: 5 });
    // 0.00002 USDC per BONK (5): 0.00002e6 / 1e5 = 0.0002.
    expect(scaledPriceFromHuman("0.00002", 5, 6)).toEqual({ pricePerToken: 2n, priceScale: 4 });
    expect(scaledPriceFromHuman("150", 0, 9)).toEqual({ pricePerToken: 150_000_000_000n, priceScale: 0 });
  });
});

describe("checks", () => {
  const now = 1_700_000_000n;
  const valid: CreateOfferArgs = { side: "sell", nonce: 1n, size: 8n, pricePerToken: 125n, priceScale: 3, minFill: 8n, expiresAt: now + 1n };
  const check = (patch: Partial<CreateOfferArgs>, paymentMint = USDC) => checkCreateOffer({ ...valid, ...patch }, { now, paymentMint });

  it("mirror create_offer", () => {
    expect(check({})).toBeNull();
    expect(check({ size: 0n })).toBe("InvalidSize");
    expect(check({ pricePerToken: 0n })).toBe("InvalidPrice");
    expect(check({ priceScale: 19 })).toBe("InvalidPriceScale");
    expect(check({ size: 7n, minFill: 0n })).toBe("InexactTotal");
    expect(check({ minFill: 9n })).toBe("MinFillTooLarge");
    expect(check({ expiresAt: now })).toBe("InvalidExpiry");
    expect(check({ expiresAt: now + 2_592_000n })).toBeNull();
    expect(check({ expiresAt: now + 2_592_001n })).toBe("InvalidExpiry");
    expect(check({}, "11111111111111111111111111111111")).toBe("PaymentMintNotAccepted");
    expect(check({ size: U64_MAX, pricePerToken: 2n, priceScale: 0, minFill: 0n })).toBe("ArithmeticOverflow");
  });

  it("mirror take_offer", () => {
    const offer = { state: "active" as const, expiresAt: now + 10n, remainingSize: 100n, minFill: 30n, pricePerToken: 1n, priceScale: 0 };
    expect(checkTakeOffer(offer, 30n, now)).toBeNull();
    expect(checkTakeOffer(offer, 29n, now)).toBe("FillBelowMinimum");
    expect(checkTakeOffer(offer, 101n, now)).toBe("FillExceedsRemaining");
    expect(checkTakeOffer(offer, 30n, now + 10n)).toBe("OfferExpired");
    expect(checkTakeOffer({ ...offer, state: "filled" }, 30n, now)).toBe("OfferNotActive");
    // The last piece may be smaller than min_fill.
    expect(checkTakeOffer({ ...offer, remainingSize: 10n }, 10n, now)).toBeNull();
    expect(checkTakeOffer({ ...offer, remainingSize: 10n }, 9n, now)).toBe("FillBelowMinimum");
  });

  it("mirror expire_offer and the API status", () => {
    const offer = { state: "active" as const, expiresAt: now };
    expect(checkExpireOffer(offer, now - 1n)).toBe("OfferNotExpired");
    expect(checkExpireOffer(offer, now)).toBeNull();
    expect(offerStatus(offer, now - 1n)).toBe("open");
    expect(offerStatus(offer, now)).toBe("expired");
    expect(offerStatus({ state: "cancelled", expiresAt: now }, 0n)).toBe("cancelled");
  });
});

describe("units", () => {
  it("formats raw amounts exactly", () => {
    expect(formatUnits(1_500_000n, 6)).toBe("1.5");
    expect(formatUnits(0n, 9)).toBe("0");
    expect(formatUnits(1n, 18)).toBe("0.000000000000000001");
    expect(formatUnits(100n, 2)).toBe("1");
    expect(formatUnits(123n, 0)).toBe("123");
    expect(formatUnits(-1_500_000n, 6)).toBe("-1.5");
    expect(formatUnits(U64_MAX, 9)).toBe("18446744073.709551615");
  });

  it("parses amounts back", () => {
    expect(parseUnits("1.5", 6)).toBe(1_500_000n);
    expect(parseUnits("18446744073.709551615", 9)).toBe(U64_MAX);
    expect(parseUnits("2", 0)).toBe(2n);
    expect(() => parseUnits("0.0000001", 6)).toThrow();
    expect(() => parseUnits("1e5", 6)).toThrow();
  });

  it("renders the price per whole token", () => {
    expect(humanPrice(125n, 3, 6, 6)).toBe("0.125");
    expect(humanPrice(15n, 1, 9, 6)).toBe("1500");
    expect(humanPrice(1n, 18, 0, 9)).toBe("0.000000000000000000000000001");
    expect(humanPrice(2n, 4, 5, 6)).toBe("0.00002");
    expect(humanPrice(U64_MAX, 0, 9, 6)).toBe("18446744073709551615000");
  });
});

describe("offer PDA", () => {
  const programId = Keypair.fromSeed(new Uint8Array(32).fill(7)).publicKey;
  const maker = new PublicKey(new Uint8Array(32).fill(1));

  it("derives from ['offer', maker, nonce u64 LE]", () => {
    const nonce = 0x0102030405060708n;
    const seeds = [Buffer.from("offer"), maker.toBuffer(), Buffer.from("0807060504030201", "hex")];
    const [expected, expectedBump] = PublicKey.findProgramAddressSync(seeds, programId);
    const { address, bump } = findOfferAddress(programId, maker, nonce);
    expect(address.toBase58()).toBe(expected.toBase58());
    expect(bump).toBe(expectedBump);
    expect(createOfferAddress(programId, maker, nonce, bump).toBase58()).toBe(expected.toBase58());
  });

  it("depends on the program id", () => {
    const other = Keypair.fromSeed(new Uint8Array(32).fill(8)).publicKey;
    expect(findOfferAddress(other, maker, 1n).address.equals(findOfferAddress(programId, maker, 1n).address)).toBe(false);
  });
});
