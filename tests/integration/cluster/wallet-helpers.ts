import {
  createAssociatedTokenAccountIdempotentInstruction,
  getAssociatedTokenAddressSync,
  NATIVE_MINT,
  TOKEN_PROGRAM_ID,
} from "@solana/spl-token";
import {
  type Connection,
  type Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  type TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import { createOfferInstruction, findOfferAddress, takeOfferInstruction } from "../../../lib/program/index";
import type { LocalCluster } from "../../../local/cluster/index";

/** What a browser wallet does against the local cluster: fund itself, build, sign and send v0 transactions. */

export const JUP = new PublicKey("JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN");
export const USDC = new PublicKey("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
export const WSOL = NATIVE_MINT;

export async function rpcCall<T = unknown>(url: string, method: string, params: unknown[]): Promise<{ result?: T; error?: { code: number; message: string; data?: unknown } }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  return (await res.json()) as { result?: T; error?: { code: number; message: string } };
}

export async function airdrop(connection: Connection, to: PublicKey, sol: number): Promise<void> {
  const signature = await connection.requestAirdrop(to, sol * LAMPORTS_PER_SOL);
  const latest = await connection.getLatestBlockhash();
  await connection.confirmTransaction({ signature, ...latest }, "confirmed");
}

export async function tokenAirdrop(cluster: LocalCluster, owner: PublicKey, mint: PublicKey, raw: bigint): Promise<string> {
  const res = await rpcCall<string>(cluster.url, "requestTokenAirdrop", [owner.toBase58(), mint.toBase58(), raw.toString()]);
  if (!res.result) throw new Error(`requestTokenAirdrop failed: ${JSON.stringify(res.error)}`);
  return res.result;
}

export async function versioned(connection: Connection, payer: Keypair, instructions: TransactionInstruction[], sign = true): Promise<VersionedTransaction> {
  const { blockhash } = await connection.getLatestBlockhash();
  const tx = new VersionedTransaction(new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: blockhash, instructions }).compileToV0Message());
  if (sign) tx.sign([payer]);
  return tx;
}

/** Sends with preflight and waits for `confirmed`; throws when the transaction failed. */
export async function sendAndConfirm(connection: Connection, payer: Keypair, instructions: TransactionInstruction[]): Promise<string> {
  const tx = await versioned(connection, payer, instructions);
  const signature = await connection.sendTransaction(tx);
  const latest = await connection.getLatestBlockhash();
  const confirmation = await connection.confirmTransaction({ signature, ...latest }, "confirmed");
  if (confirmation.value.err) throw new Error(`transaction failed: ${JSON.stringify(confirmation.value.err)}`);
  return signature;
}

export const ata = (owner: PublicKey, mint: PublicKey) => getAssociatedTokenAddressSync(mint, owner, true);

export const createAta = (payer: PublicKey, owner: PublicKey, mint: PublicKey) =>
  createAssociatedTokenAccountIdempotentInstruction(payer, ata(owner, mint), owner, mint, TOKEN_PROGRAM_ID);

export interface MadeOffer {
  offer: PublicKey;
  maker: Keypair;
  paymentMint: PublicKey;
  escrow: PublicKey;
}

/** A maker with SOL and JUP sells `size` raw JUP at pricePerToken/10^priceScale raw payment units each. */
export const makeSellOffer = (connection: Connection, cluster: LocalCluster, maker: Keypair, terms: OfferTerms) =>
  makeOffer(connection, cluster, maker, { ...terms, side: "sell" });

interface OfferTerms {
  paymentMint: PublicKey;
  size: bigint;
  pricePerToken: bigint;
  priceScale: number;
  minFill: bigint;
  nonce: bigint;
}

/** A JUP offer: a sell escrows the maker's JUP, a buy the payment it offers; the maker receives into its account of the other mint. */
export async function makeOffer(connection: Connection, cluster: LocalCluster, maker: Keypair, terms: OfferTerms & { side: "sell" | "buy" }): Promise<MadeOffer> {
  const programId = new PublicKey(cluster.programId);
  const { address: offer } = findOfferAddress(programId, maker.publicKey, terms.nonce);
  const [escrowMint, receiveMint] = terms.side === "sell" ? [JUP, terms.paymentMint] : [terms.paymentMint, JUP];
  const escrow = ata(offer, escrowMint);
  const expiresAt = BigInt(cluster.ledger.tip.blockTime + 86_400);
  await sendAndConfirm(connection, maker, [
    createAta(maker.publicKey, maker.publicKey, receiveMint),
    createOfferInstruction(
      programId,
      { maker: maker.publicKey, offer, tokenMint: JUP, paymentMint: terms.paymentMint, escrow, makerSource: ata(maker.publicKey, escrowMint), tokenProgram: TOKEN_PROGRAM_ID },
      { side: terms.side, nonce: terms.nonce, size: terms.size, pricePerToken: terms.pricePerToken, priceScale: terms.priceScale, minFill: terms.minFill, expiresAt },
    ),
  ]);
  return { offer, maker, paymentMint: terms.paymentMint, escrow };
}

export function takeInstruction(cluster: LocalCluster, made: MadeOffer, taker: PublicKey, fillAmount: bigint): TransactionInstruction {
  const treasury = new PublicKey(cluster.treasury);
  return takeOfferInstruction(
    new PublicKey(cluster.programId),
    {
      taker,
      offer: made.offer,
      maker: made.maker.publicKey,
      tokenMint: JUP,
      paymentMint: made.paymentMint,
      escrow: made.escrow,
      takerTokenAccount: ata(taker, JUP),
      takerPaymentAccount: ata(taker, made.paymentMint),
      makerReceiveAccount: ata(made.maker.publicKey, made.paymentMint),
      treasuryPaymentAccount: ata(treasury, made.paymentMint),
      tokenProgram: TOKEN_PROGRAM_ID,
    },
    { fillAmount },
  );
}
