import { describe, expect, it } from "vitest";
import { mintWarning } from "../../client/mint-risks";
import type { Token } from "../../client/types";

// The words of the book's and trade forms' warning on a risky mint, from the
// `safety` of GET /v1/tokens.

type Safety = NonNullable<Token["safety"]>;
const KEY = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const fee = (basisPoints: number) => ({ epoch: "0", basisPoints, maximumFee: "1000" });
const safety = (over: Partial<Safety>): Safety => ({
  tokenProgram: "token-2022",
  mintAuthority: null,
  freezeAuthority: null,
  extensions: [],
  transferFee: null,
  permanentDelegate: null,
  transferHook: null,
  nonTransferable: false,
  defaultFrozen: false,
  pausable: null,
  risks: [],
  slot: 1,
  ...over,
});

describe("mintWarning", () => {
  it("says nothing when nothing is known, nothing is wrong, or the supply can merely grow", () => {
    expect(mintWarning(undefined)).toEqual([]);
    expect(mintWarning(null)).toEqual([]);
    expect(mintWarning(safety({}))).toEqual([]);
    expect(mintWarning(safety({ mintAuthority: KEY, risks: ["mint_authority"] }))).toEqual([]);
  });

  it("words every risk in the API's order once one of them reaches what holders have", () => {
    const everything = safety({
      mintAuthority: KEY,
      freezeAuthority: KEY,
      transferFee: { authority: KEY, older: fee(50), newer: fee(150) },
      permanentDelegate: KEY,
      transferHook: { programId: KEY, authority: null },
      nonTransferable: true,
      defaultFrozen: true,
      pausable: { authority: KEY, paused: true },
      risks: ["mint_authority", "freeze_authority", "transfer_fee", "permanent_delegate", "transfer_hook", "non_transferable", "default_frozen", "pausable"],
    });
    expect(mintWarning(everything)).toEqual([
      "its supply can still grow",
      "its holders' accounts can be frozen",
      "transfers pay a fee of up to 1.5%",
      "a permanent delegate can move or burn anyone's tokens",
      "a program checks every transfer and can refuse it",
      "it cannot be transferred",
      "new token accounts start frozen",
      "its transfers are paused",
    ]);
  });

  it("tells a fee that is charged from one that can only be set, and a pause that can come from one in force", () => {
    expect(mintWarning(safety({ transferFee: { authority: KEY, older: fee(0), newer: fee(0) }, risks: ["transfer_fee"] }))).toEqual(["a fee on transfers can be set"]);
    expect(mintWarning(safety({ transferFee: { authority: null, older: fee(1), newer: fee(0) }, risks: ["transfer_fee"] }))).toEqual(["transfers pay a fee of up to 0.01%"]);
    expect(mintWarning(safety({ pausable: { authority: KEY, paused: false }, risks: ["pausable"] }))).toEqual(["its transfers can be paused"]);
  });
});
