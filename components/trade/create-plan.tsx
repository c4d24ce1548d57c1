import { PublicKey } from "@solana/web3.js";
import {
  type CreateOfferInput,
  createInstructions,
  derivedEscrowAddress,
  EXPIRY_BOUNTY_LAMPORTS,
  findOfferAddress,
  formatUnits,
  newOfferNonce,
  OFFER_ACCOUNT_SIZE,
  previewCreate,
} from "@/lib/program";
import type { ExplorerConfig } from "@/client/explorer";
import type { ActionPlan } from "./action-flow";
import { type BalanceNeed, connectionFor, isSol, readMints, rentForNewTokenAccounts, SOL, tokenAccountRent, tokenProgramLookup } from "./chain";
import { CreateBookLine } from "./create-book-line";

/**
 * The create_offer transaction for a checked form, built from the chain right
 * before it runs: a fresh nonce (the offer's address), the mints' token
 * programs, the rent and bounty the maker pays and what it escrows.
 */
export async function createOfferPlan(config: ExplorerConfig, maker: PublicKey, input: Omit<CreateOfferInput, "nonce">, symbols: { token: string; payment: string }): Promise<ActionPlan> {
  if (!config.rpcUrl || !config.programId) throw new Error("Trading is not configured on this deployment (RPC URL or program id missing)");
  const { tokenMint, paymentMint, tokenDecimals, paymentDecimals } = input;
  const connection = connectionFor(config.rpcUrl);
  const programId = new PublicKey(config.programId);
  const fresh = previewCreate({ ...input, nonce: newOfferNonce() });
  if (!fresh.ok) throw new Error(fresh.reason);
  const mints = await readMints(connection, [tokenMint, paymentMint]);
  const tokenProgramOf = tokenProgramLookup(mints);
  const offer = findOfferAddress(programId, maker, fresh.args.nonce).address;
  const escrow = derivedEscrowAddress(offer, tokenProgramOf(new PublicKey(tokenMint)));
  const built = createInstructions({
    programId,
    maker,
    tokenMint: new PublicKey(tokenMint),
    paymentMint: new PublicKey(paymentMint),
    args: fresh.args,
    escrowFor: () => escrow,
    tokenProgramOf,
  });
  const offerRent = BigInt(await connection.getMinimumBalanceForRentExemption(OFFER_ACCOUNT_SIZE));
  const accountsRent = offerRent + (await tokenAccountRent(connection)) + (await rentForNewTokenAccounts(connection, built.instructions));
  const escrowInSol = isSol(fresh.escrow.mint);
  const needs: BalanceNeed[] = [{ ...SOL, amount: accountsRent + EXPIRY_BOUNTY_LAMPORTS + (escrowInSol ? fresh.escrow.amount : 0n) }];
  if (!escrowInSol) {
    const isToken = fresh.escrow.mint === tokenMint;
    needs.push({ mint: fresh.escrow.mint, amount: fresh.escrow.amount, decimals: isToken ? tokenDecimals : paymentDecimals, symbol: isToken ? symbols.token : symbols.payment });
  }
  return {
    payer: maker,
    programId: programId.toBase58(),
    groups: [{ main: built.instructions }],
    needs,
    offers: [offer.toBase58()],
    missingOffer: "pending",
    summary: (
      <>
        <CreateBookLine preview={fresh} tokenDecimals={tokenDecimals} paymentDecimals={paymentDecimals} tokenMint={tokenMint} paymentMint={paymentMint} />
        <p className="text-xs text-muted" data-testid="create-offer-address">
          Offer <span className="break-all font-mono">{offer.toBase58()}</span>; the maker also deposits the {formatUnits(EXPIRY_BOUNTY_LAMPORTS, 9)} SOL expiry bounty (returned on fill or cancel).
        </p>
      </>
    ),
  };
}
