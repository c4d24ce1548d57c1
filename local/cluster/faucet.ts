import { SYSTEM_PROGRAM_ADDRESS } from "../../lib/program";
import { ASSOCIATED_TOKEN_PROGRAM, associatedTokenAddress } from "./ata-program";
import { deriveKeypair, type LocalKeypair } from "./keys";
import type { Ledger, LedgerTransaction } from "./ledger";
import { NATIVE_MINT, tokenProgramAddress, type LocalMint } from "./tokens";
import { compileMessage, type InstructionLike, signMessage } from "./wire";

/** What the faucet holds at genesis: a million SOL. */
export const FAUCET_LAMPORTS = 1_000_000 * 1_000_000_000;
/** The most one requestAirdrop may ask for: 1,000 SOL. */
export const MAX_AIRDROP_LAMPORTS = 1_000 * 1_000_000_000;
/** The most one requestTokenAirdrop may ask for, in US dollars at the mint's reference price. */
const MAX_TOKEN_AIRDROP_USD = 1_000_000;

export class FaucetRefusal extends Error {}

export function faucetKeypair(seed: string): LocalKeypair {
  return deriveKeypair(seed, "faucet");
}

export function mintAuthorityKeypair(seed: string): LocalKeypair {
  return deriveKeypair(seed, "mint-authority");
}

/**
 * The local cluster's faucets: SOL from a funded keypair, and the demo and
 * payment tokens minted by the mint authority the cluster holds. Each request
 * is a real signed transaction landed in a new block, so wallets and the
 * indexer see it like any other.
 */
/** What the faucet needs of the cluster's world (world.ts): its seed and its mints. */
export interface FaucetWorld {
  readonly options: { readonly seed: string };
  readonly mints: readonly LocalMint[];
}

export class Faucet {
  private readonly payer: LocalKeypair;
  private readonly mintAuthority: LocalKeypair;

  constructor(
    private readonly world: FaucetWorld,
    private readonly ledger: Ledger,
    private readonly submit: (wire: Uint8Array) => LedgerTransaction,
  ) {
    this.payer = faucetKeypair(world.options.seed);
    this.mintAuthority = mintAuthorityKeypair(world.options.seed);
  }

  get address(): string {
    return this.payer.address;
  }

  airdrop(to: string, lamports: bigint): string {
    if (lamports <= 0n) throw new FaucetRefusal("the airdrop amount must be positive");
    if (lamports > BigInt(MAX_AIRDROP_LAMPORTS)) throw new FaucetRefusal(`the faucet gives at most ${MAX_AIRDROP_LAMPORTS} lamports (1000 SOL) per request`);
    const data = new Uint8Array(12);
    const view = new DataView(data.buffer);
    view.setUint32(0, 2, true);
    view.setBigUint64(4, lamports, true);
    const transfer: InstructionLike = {
      programId: SYSTEM_PROGRAM_ADDRESS,
      keys: [
        { pubkey: this.payer.address, isSigner: true, isWritable: true },
        { pubkey: to, isSigner: false, isWritable: true },
      ],
      data,
    };
    return this.land([transfer], [this.payer]);
  }

  /** Creates the owner's associated token account if needed, then mints `amount` raw units into it. */
  tokenAirdrop(owner: string, mintAddress: string, amount: bigint): string {
    if (mintAddress === NATIVE_MINT) throw new FaucetRefusal("wrapped SOL is not minted: airdrop SOL, then wrap it (transfer to the wSOL account and syncNative)");
    const mint = this.world.mints.find((m) => m.address === mintAddress);
    if (!mint) throw new FaucetRefusal(`${mintAddress} is not a mint of the local cluster; the faucet gives ${this.world.mints.filter((m) => m.address !== NATIVE_MINT).map((m) => m.symbol).join(", ")}`);
    if (amount <= 0n) throw new FaucetRefusal("the token amount must be a positive number of raw units");
    const max = BigInt(Math.floor(MAX_TOKEN_AIRDROP_USD / mint.referenceUsd)) * 10n ** BigInt(mint.decimals);
    if (amount > max) throw new FaucetRefusal(`the faucet gives at most ${max} raw units of ${mint.symbol} (about $${MAX_TOKEN_AIRDROP_USD}) per request`);

    const tokenProgram = tokenProgramAddress(mint.tokenProgram);
    const ata = associatedTokenAddress(owner, mintAddress, tokenProgram);
    const createIdempotent: InstructionLike = {
      programId: ASSOCIATED_TOKEN_PROGRAM,
      keys: [
        { pubkey: this.payer.address, isSigner: true, isWritable: true },
        { pubkey: ata, isSigner: false, isWritable: true },
        { pubkey: owner, isSigner: false, isWritable: false },
        { pubkey: mintAddress, isSigner: false, isWritable: false },
        { pubkey: SYSTEM_PROGRAM_ADDRESS, isSigner: false, isWritable: false },
        { pubkey: tokenProgram, isSigner: false, isWritable: false },
      ],
      data: Uint8Array.of(1),
    };
    const mintData = new Uint8Array(10);
    mintData[0] = 14; // MintToChecked
    new DataView(mintData.buffer).setBigUint64(1, amount, true);
    mintData[9] = mint.decimals;
    const mintTo: InstructionLike = {
      programId: tokenProgram,
      keys: [
        { pubkey: mintAddress, isSigner: false, isWritable: true },
        { pubkey: ata, isSigner: false, isWritable: true },
        { pubkey: this.mintAuthority.address, isSigner: true, isWritable: false },
      ],
      data: mintData,
    };
    return this.land([createIdempotent, mintTo], [this.payer, this.mintAuthority]);
  }

  private land(instructions: InstructionLike[], signers: LocalKeypair[]): string {
    // Every request lands in a new block, so the next request's blockhash differs: identical requests are never duplicates.
    const message = compileMessage({ payer: this.payer.address, instructions, recentBlockhash: this.ledger.tip.blockhash });
    const tx = this.submit(signMessage(message, signers).wire);
    if (tx.result.err !== null) throw new Error(`the faucet's transaction failed: ${tx.errJson}; ${tx.result.logMessages.join(" | ")}`);
    return tx.signature;
  }
}
