import { createHash } from "node:crypto";
import bs58 from "bs58";
import { Keypair, PublicKey, SystemProgram } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import {
  cancelOfferInstruction,
  closeOfferInstruction,
  createOfferInstruction,
  decodeInstruction,
  decodeInstructionData,
  decodeOfferAccount,
  encodeInstructionData,
  encodeOfferAccount,
  expireOfferInstruction,
  INSTRUCTION_DISCRIMINATORS,
  instructionNameOf,
  nameInstructionAccounts,
  OFFER_ACCOUNT_DISCRIMINATOR,
  OFFER_ACCOUNT_SIZE,
  resolveAccountIndexes,
  takeOfferInstruction,
  type OfferAccount,
} from "../../lib/program";

const hex = (h: string) => Uint8Array.from(Buffer.from(h.replace(/[\s|]+/g, ""), "hex"));
const toHex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const filled = (byte: number) => bs58.encode(new Uint8Array(32).fill(byte));

describe("discriminators", () => {
  // The hex column of docs/program.md's discriminator table.
  const table: Array<[string, string]> = [
    ["account:Offer", "d7583c47aaa249e5"],
    ["global:create_offer", "ede9c0a8f807f9f1"],
    ["global:take_offer", "809cf2cfedc067f0"],
    ["global:cancel_offer", "5ccbdf285c593577"],
    ["global:expire_offer", "a185783300c9e0f8"],
    ["global:close_offer", "bf484323efd16184"],
  ];

  it("match program.md and sha256 of their preimages", () => {
    for (const [preimage, expected] of table) {
      expect(createHash("sha256").update(preimage).digest("hex").slice(0, 16)).toBe(expected);
    }
    expect(toHex(OFFER_ACCOUNT_DISCRIMINATOR)).toBe("d7583c47aaa249e5");
    expect(toHex(INSTRUCTION_DISCRIMINATORS.create_offer)).toBe("ede9c0a8f807f9f1");
    expect(toHex(INSTRUCTION_DISCRIMINATORS.take_offer)).toBe("809cf2cfedc067f0");
    expect(toHex(INSTRUCTION_DISCRIMINATORS.cancel_offer)).toBe("5ccbdf285c593577");
    expect(toHex(INSTRUCTION_DISCRIMINATORS.expire_offer)).toBe("a185783300c9e0f8");
    expect(toHex(INSTRUCTION_DISCRIMINATORS.close_offer)).toBe("bf484323efd16184");
  });

  it("name instructions by their first 8 bytes only", () => {
    expect(instructionNameOf(hex("809cf2cfedc067f0"))).toBe("take_offer");
    expect(instructionNameOf(hex("809cf2cfedc067"))).toBeNull();
    expect(instructionNameOf(hex("0000000000000000"))).toBeNull();
    expect(instructionNameOf(hex("d7583c47aaa249e5"))).toBeNull();
  });
});

describe("Offer account", () => {
  // Hand-assembled, field by field, from docs/program.md's offset table.
  const bytes = hex(
    [
      "d7583c47aaa249e5", // discriminator
      "01".repeat(32), // maker
      "02".repeat(32), // token_mint
      "03".repeat(32), // payment_mint
      "01", // side: buy
      "0807060504030201", // nonce 0x0102030405060708
      "40420f0000000000", // original_size 1_000_000
      "90d0030000000000", // remaining_size 250_000
      "ffffffffffffffff", // price_per_token u64::MAX
      "12", // price_scale 18
      "e803000000000000", // min_fill 1000
      "00f1536500000000", // created_at 1_700_000_000
      "ffffffffffffffff", // expires_at -1 (i64)
      "02", // state: cancelled
      "fe", // bump 254
    ].join(""),
  );
  const decoded: OfferAccount = {
    maker: filled(1),
    tokenMint: filled(2),
    paymentMint: filled(3),
    side: "buy",
    nonce: 0x0102030405060708n,
    originalSize: 1_000_000n,
    remainingSize: 250_000n,
    pricePerToken: 18_446_744_073_709_551_615n,
    priceScale: 18,
    minFill: 1000n,
    createdAt: 1_700_000_000n,
    expiresAt: -1n,
    state: "cancelled",
    bump: 254,
  };

  it("is 164 bytes", () => {
    expect(bytes.length).toBe(164);
    expect(OFFER_ACCOUNT_SIZE).toBe(164);
  });

  it("decodes the fixed vector", () => {
    expect(decodeOfferAccount(bytes)).toEqual(decoded);
  });

  it("encodes to the fixed vector", () => {
    expect(toHex(encodeOfferAccount(decoded))).toBe(toHex(bytes));
  });

  it("decodes a subarray at a non-zero byte offset", () => {
    const padded = new Uint8Array(200);
    padded.set(bytes, 3);
    expect(decodeOfferAccount(padded.subarray(3, 167))).toEqual(decoded);
  });

  it("rejects a wrong discriminator, short data, and out-of-range enum bytes", () => {
    const wrong = bytes.slice();
    wrong[0] = 0;
    expect(decodeOfferAccount(wrong)).toBeNull();
    expect(decodeOfferAccount(bytes.subarray(0, 163))).toBeNull();
    const badSide = bytes.slice();
    badSide[104] = 2;
    expect(decodeOfferAccount(badSide)).toBeNull();
    const badState = bytes.slice();
    badState[162] = 4;
    expect(decodeOfferAccount(badState)).toBeNull();
  });

  it("refuses to encode values outside their field", () => {
    expect(() => encodeOfferAccount({ ...decoded, nonce: 1n << 64n })).toThrow(RangeError);
    expect(() => encodeOfferAccount({ ...decoded, remainingSize: -1n })).toThrow(RangeError);
    expect(() => encodeOfferAccount({ ...decoded, expiresAt: 1n << 63n })).toThrow(RangeError);
    expect(() => encodeOfferAccount({ ...decoded, priceScale: 256 })).toThrow(RangeError);
  });
});

describe("instruction data", () => {
  const vectors = [
    {
      bytes: hex(
        [
          "ede9c0a8f807f9f1",
          "00", // side: sell
          "0700000000000000", // nonce 7
          "00f2052a01000000", // size 5_000_000_000
          "7d00000000000000", // price_per_token 125
          "03", // price_scale 3
          "0000000000000000", // min_fill 0
          "8042556500000000", // expires_at 1_700_086_400
        ].join(""),
      ),
      decoded: {
        name: "create_offer",
        args: { side: "sell", nonce: 7n, size: 5_000_000_000n, pricePerToken: 125n, priceScale: 3, minFill: 0n, expiresAt: 1_700_086_400n },
      },
    },
    {
      bytes: hex("809cf2cfedc067f0" + "feffffffffffffff"), // fill_amount 2^64 - 2
      decoded: { name: "take_offer", args: { fillAmount: 18_446_744_073_709_551_614n } },
    },
    { bytes: hex("5ccbdf285c593577"), decoded: { name: "cancel_offer", args: {} } },
    { bytes: hex("a185783300c9e0f8"), decoded: { name: "expire_offer", args: {} } },
    { bytes: hex("bf484323efd16184"), decoded: { name: "close_offer", args: {} } },
  ] as const;

  it("create_offer is 50 bytes and take_offer 16", () => {
    expect(vectors[0].bytes.length).toBe(50);
    expect(vectors[1].bytes.length).toBe(16);
  });

  for (const { bytes, decoded } of vectors) {
    it(`${decoded.name} decodes and encodes its fixed vector`, () => {
      expect(decodeInstructionData(bytes)).toEqual(decoded);
      expect(toHex(encodeInstructionData(decoded))).toBe(toHex(bytes));
    });
  }

  it("returns null for unknown discriminators and for truncated arguments", () => {
    expect(decodeInstructionData(hex("0102030405060708090a"))).toBeNull();
    expect(decodeInstructionData(new Uint8Array())).toBeNull();
    expect(decodeInstructionData(vectors[0].bytes.subarray(0, 49))).toBeNull();
    expect(decodeInstructionData(vectors[1].bytes.subarray(0, 15))).toBeNull();
    expect(instructionNameOf(vectors[1].bytes.subarray(0, 15))).toBe("take_offer");
  });

  it("ignores trailing bytes, as Anchor does", () => {
    const longer = new Uint8Array([...vectors[1].bytes, 0xaa, 0xbb]);
    expect(decodeInstructionData(longer)).toEqual(vectors[1].decoded);
  });

  it("rejects a create_offer side byte other than 0 or 1", () => {
    const bad = vectors[0].bytes.slice();
    bad[8] = 2;
    expect(decodeInstructionData(bad)).toBeNull();
  });
});

describe("instruction accounts", () => {
  const keys = Array.from({ length: 12 }, (_, i) => filled(i + 1));

  it("names take_offer's eleven accounts in program.md's order", () => {
    expect(nameInstructionAccounts("take_offer", keys.slice(0, 11))).toEqual({
      taker: keys[0],
      offer: keys[1],
      maker: keys[2],
      tokenMint: keys[3],
      paymentMint: keys[4],
      escrow: keys[5],
      takerTokenAccount: keys[6],
      takerPaymentAccount: keys[7],
      makerReceiveAccount: keys[8],
      treasuryPaymentAccount: keys[9],
      tokenProgram: keys[10],
    });
    expect(nameInstructionAccounts("take_offer", keys.slice(0, 10))).toBeNull();
  });

  it("resolves indexes over static then loaded keys", () => {
    const all = ["s0", "s1", "w0", "r0"];
    expect(resolveAccountIndexes([3, 0, 2], all)).toEqual(["r0", "s0", "w0"]);
    expect(resolveAccountIndexes([4], all)).toBeNull();
  });

  it("decodes data and accounts together", () => {
    const decoded = decodeInstruction(hex("a185783300c9e0f8"), keys.slice(0, 6));
    expect(decoded).toEqual({
      name: "expire_offer",
      args: {},
      accounts: { cranker: keys[0], offer: keys[1], maker: keys[2], escrow: keys[3], makerRefundAccount: keys[4], tokenProgram: keys[5] },
    });
    expect(decodeInstruction(hex("bf484323efd16184"), keys.slice(0, 1))).toBeNull();
  });
});

describe("instruction builders", () => {
  const programId = Keypair.fromSeed(new Uint8Array(32).fill(9)).publicKey;
  const k = (byte: number) => new PublicKey(new Uint8Array(32).fill(byte));
  const flags = (ix: ReturnType<typeof closeOfferInstruction>) =>
    ix.keys.map((m) => `${m.isSigner ? "s" : "-"}${m.isWritable ? "w" : "-"}`).join(" ");

  it("create_offer: accounts, flags (program.md) and data", () => {
    const ix = createOfferInstruction(
      programId,
      { maker: k(1), offer: k(2), tokenMint: k(3), paymentMint: k(4), escrow: k(5), makerSource: k(6), tokenProgram: k(7) },
      { side: "sell", nonce: 7n, size: 5_000_000_000n, pricePerToken: 125n, priceScale: 3, minFill: 0n, expiresAt: 1_700_086_400n },
    );
    expect(ix.programId.equals(programId)).toBe(true);
    expect(ix.keys.map((m) => m.pubkey.toBase58())).toEqual([1, 2, 3, 4, 5, 6, 7].map(filled).concat(SystemProgram.programId.toBase58()));
    expect(flags(ix)).toBe("sw -w -- -- -w -w -- --");
    expect(toHex(ix.data)).toBe("ede9c0a8f807f9f1000700000000000000" + "00f2052a010000007d00000000000000030000000000000000" + "8042556500000000");
  });

  it("take_offer", () => {
    const ix = takeOfferInstruction(
      programId,
      {
        taker: k(1), offer: k(2), maker: k(3), tokenMint: k(4), paymentMint: k(5), escrow: k(6),
        takerTokenAccount: k(7), takerPaymentAccount: k(8), makerReceiveAccount: k(9), treasuryPaymentAccount: k(10), tokenProgram: k(11),
      },
      { fillAmount: 1n },
    );
    expect(flags(ix)).toBe("sw -w -w -- -- -w -w -w -w -w --");
    expect(ix.keys.map((m) => m.pubkey.toBase58())).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map(filled));
    expect(toHex(ix.data)).toBe("809cf2cfedc067f00100000000000000");
  });

  it("cancel_offer, expire_offer, close_offer", () => {
    const cancel = cancelOfferInstruction(programId, { maker: k(1), offer: k(2), escrow: k(3), makerRefundAccount: k(4), tokenProgram: k(5) });
    expect(flags(cancel)).toBe("sw -w -w -w --");
    expect(toHex(cancel.data)).toBe("5ccbdf285c593577");
    const expire = expireOfferInstruction(programId, {
      cranker: k(1), offer: k(2), maker: k(3), escrow: k(4), makerRefundAccount: k(5), tokenProgram: k(6),
    });
    expect(flags(expire)).toBe("sw -w -w -w -w --");
    expect(toHex(expire.data)).toBe("a185783300c9e0f8");
    const close = closeOfferInstruction(programId.toBase58(), { maker: filled(1), offer: filled(2) });
    expect(flags(close)).toBe("sw -w");
    expect(toHex(close.data)).toBe("bf484323efd16184");
  });
});
