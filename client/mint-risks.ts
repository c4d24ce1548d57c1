import type { Token } from "./types";

type Safety = NonNullable<Token["safety"]>;
type Risk = Safety["risks"][number];

const percent = (basisPoints: number) => `${basisPoints / 100}%`;

/** What each risk means to someone about to take the token, in a few words. */
const PHRASES: Record<Risk, (s: Safety) => string> = {
  mint_authority: () => "its supply can still grow",
  freeze_authority: () => "its holders' accounts can be frozen",
  transfer_fee: (s) => {
    const most = Math.max(s.transferFee?.older.basisPoints ?? 0, s.transferFee?.newer.basisPoints ?? 0);
    return most > 0 ? `transfers pay a fee of up to ${percent(most)}` : "a fee on transfers can be set";
  },
  permanent_delegate: () => "a permanent delegate can move or burn anyone's tokens",
  transfer_hook: () => "a program checks every transfer and can refuse it",
  non_transferable: () => "it cannot be transferred",
  default_frozen: () => "new token accounts start frozen",
  pausable: (s) => (s.pausable?.paused ? "its transfers are paused" : "its transfers can be paused"),
};

/**
 * The mint's risks (GET /v1/tokens `safety.risks`) in words, in the API's
 * order, when one of them can reach tokens a holder already has (freeze,
 * tax, move, block); empty otherwise. A mint authority alone (the supply can
 * grow: most tokens with emissions) is a fact about price, listed with the
 * others but no warning by itself; a warning on nearly every book would be read by nobody.
 */
export function mintWarning(safety: Token["safety"] | undefined): string[] {
  if (!safety || safety.risks.every((risk) => risk === "mint_authority")) return [];
  return safety.risks.map((risk) => PHRASES[risk](safety));
}
