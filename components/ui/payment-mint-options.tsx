import { PAYMENT_MINTS } from "@/lib/program/constants";

/** The `<option>`s of the payment mints the program accepts, for any `<select>` of one. */
export function PaymentMintOptions() {
  return PAYMENT_MINTS.map((m) => (
    <option key={m.address} value={m.address}>
      {m.name} ({m.symbol})
    </option>
  ));
}
