import { ApiError } from "../http/errors";
import { tokenApiError } from "../http/token-errors";
import { tokenService } from "../services";

/** The mints' decimals for units=human, from the token service (provider, then chain); a mint neither knows is the caller's 400. */
export async function pairDecimals(tokenMint: string, paymentMint: string): Promise<{ token: number; payment: number }> {
  const decimals = await tokenService()
    .decimals(tokenMint === paymentMint ? [tokenMint] : [tokenMint, paymentMint])
    .catch((error: unknown) => {
      throw tokenApiError(error);
    });
  for (const param of ["tokenMint", "paymentMint"] as const) {
    if (decimals.get(param === "tokenMint" ? tokenMint : paymentMint) == null) {
      throw new ApiError("invalid_parameter", `units=human needs the decimals of ${param}, which neither the token provider nor the chain knows; use units=raw`, "units");
    }
  }
  return { token: decimals.get(tokenMint)!, payment: decimals.get(paymentMint)! };
}
