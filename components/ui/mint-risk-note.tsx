"use client";

import { mintWarning } from "@/client/mint-risks";
import { tokenLabel, useToken } from "../data/tokens";

/**
 * A warning line for a mint whose account lets others freeze, tax, move or
 * block its holders' tokens (GET /v1/tokens `safety`, client/mint-risks.ts);
 * nothing for one without, or while nothing is known of it.
 */
export function MintRiskNote({ mint }: { mint: string }) {
  const token = useToken(mint);
  const phrases = mintWarning(token?.safety);
  if (phrases.length === 0) return null;
  return (
    <p
      className="rounded-lg border border-warn/40 bg-warn/10 px-3 py-2 text-sm text-warn"
      role="note"
      data-testid="mint-risk"
      data-risks={token!.safety!.risks.join(" ")}
    >
      <span className="font-semibold">Check {tokenLabel(token, mint)} before trading:</span> {phrases.join("; ")}.
      {token?.isVerified && " The token list marks it verified."}
    </p>
  );
}
