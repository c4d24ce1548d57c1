import { Connection, Keypair, PublicKey, Transaction, type TransactionInstruction } from "@solana/web3.js";
import {
  createInstructions,
  derivedEscrowAddress,
  findOfferAddress,
  newOfferNonce,
  type OfferSide,
  takeAmounts,
  takeInstructions,
  TOKEN_PROGRAM_ADDRESS,
} from "../../lib/program";
import { jsonRpc, waitConfirmed } from "../../lib/rpc/json-rpc";
import type { LocalCluster } from "../../local/cluster";

// The test side of the trading suite: what it reads from the cluster to
// check an outcome (balances through web3.js), and what it sets up without
// the UI (funding, an offer with a short expiry, the clock moved on).

export function connectionTo(cluster: LocalCluster): Connection {
  return new Connection(cluster.env.SOLANA_RPC_URL, "confirmed");
}

/** The owner's balance of `mint` over all its token accounts (either token program), raw. */
export async function tokenBalance(connection: Connection, owner: string, mint: string): Promise<bigint> {
  const { value } = await connection.getParsedTokenAccountsByOwner(new PublicKey(owner), { mint: new PublicKey(mint) }, "confirmed");
  return value.reduce((sum, a) => sum + BigInt((a.account.data.parsed as { info: { tokenAmount: { amount: string } } }).info.tokenAmount.amount), 0n);
}

export async function lamports(connection: Connection, owner: string): Promise<bigint> {
  return BigInt(await connection.getBalance(new PublicKey(owner), "confirmed"));
}

/** SOL (if any) by requestAirdrop and `tokens` (mint → raw amount) by the local requestTokenAirdrop faucet. */
export async function fund(cluster: LocalCluster, owner: string, sol: number, tokens: Record<string, bigint>): Promise<void> {
  const rpc = cluster.env.SOLANA_RPC_URL;
  const signatures = sol > 0 ? [await jsonRpc<string>(rpc, "requestAirdrop", [owner, sol * 10 ** 9])] : [];
  for (const [mint, amount] of Object.entries(tokens)) signatures.push(await jsonRpc<string>(rpc, "requestTokenAirdrop", [owner, mint, amount.toString()]));
  await waitConfirmed(rpc, signatures);
}

/** The chain's clock: the block time of the confirmed tip. */
export async function chainNow(connection: Connection): Promise<bigint> {
  return BigInt((await connection.getBlockTime(await connection.getSlot("confirmed"))) ?? Math.floor(Date.now() / 1000));
}

/** Empty blocks until the chain's clock has passed `unix`. */
export async function advancePast(cluster: LocalCluster, connection: Connection, unix: bigint): Promise<void> {
  for (let i = 0; i < 200 && (await chainNow(connection)) <= unix; i++) cluster.advanceSlots(10);
}

export interface OfferTerms {
  side: OfferSide;
  tokenMint: string;
  paymentMint: string;
  size: bigint;
  pricePerToken: bigint;
  priceScale: number;
  minFill: bigint;
  expiresAt: bigint;
}

/** create_offer signed in Node with the program's own builders (spl-token mints), sent and confirmed; returns the offer's address. */
export async function createOfferFromNode(cluster: LocalCluster, maker: Keypair, terms: OfferTerms): Promise<string> {
  const programId = new PublicKey(cluster.programId);
  const nonce = newOfferNonce();
  const offer = findOfferAddress(programId, maker.publicKey, nonce).address;
  const escrow = derivedEscrowAddress(offer, new PublicKey(TOKEN_PROGRAM_ADDRESS));
  const { instructions } = createInstructions({
    programId,
    maker: maker.publicKey,
    tokenMint: new PublicKey(terms.tokenMint),
    paymentMint: new PublicKey(terms.paymentMint),
    args: { side: terms.side, nonce, size: terms.size, pricePerToken: terms.pricePerToken, priceScale: terms.priceScale, minFill: terms.minFill, expiresAt: terms.expiresAt },
    escrowFor: () => escrow,
    tokenProgramOf: () => new PublicKey(TOKEN_PROGRAM_ADDRESS),
  });
  await sendFromNode(cluster, maker, instructions, "create_offer");
  return offer.toBase58();
}

/** take_offer of `fillAmount` signed in Node by `taker` (spl-token mints, paid in a token, not SOL). */
export async function takeOfferFromNode(cluster: LocalCluster, taker: Keypair, offerPda: string, maker: string, terms: OfferTerms, fillAmount: bigint): Promise<void> {
  const offerAddress = new PublicKey(offerPda);
  const tokenProgram = new PublicKey(TOKEN_PROGRAM_ADDRESS);
  const instructions = takeInstructions({
    programId: new PublicKey(cluster.programId),
    treasury: new PublicKey(cluster.env.TREASURY_ADDRESS),
    taker: taker.publicKey,
    offerAddress,
    offer: { maker, tokenMint: terms.tokenMint, paymentMint: terms.paymentMint, side: terms.side },
    escrow: derivedEscrowAddress(offerAddress, tokenProgram),
    fillAmount,
    paymentAmount: takeAmounts(fillAmount, terms.pricePerToken, terms.priceScale).paymentAmount,
    tokenProgramOf: () => tokenProgram,
  });
  await sendFromNode(cluster, taker, instructions, "take_offer");
}

async function sendFromNode(cluster: LocalCluster, signer: Keypair, instructions: TransactionInstruction[], what: string): Promise<void> {
  const connection = connectionTo(cluster);
  const { blockhash } = await connection.getLatestBlockhash("confirmed");
  const tx = new Transaction({ feePayer: signer.publicKey, recentBlockhash: blockhash }).add(...instructions);
  tx.sign(signer);
  const signature = await connection.sendRawTransaction(tx.serialize(), { preflightCommitment: "confirmed" });
  await waitConfirmed(cluster.env.SOLANA_RPC_URL, [signature]);
  const status = await connection.getSignatureStatus(signature);
  if (status.value?.err) throw new Error(`${what} failed: ${JSON.stringify(status.value.err)}`);
}
