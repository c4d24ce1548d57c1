import { createHash } from "node:crypto";
import bs58 from "bs58";
import { PublicKey } from "@solana/web3.js";
import { escrowAddressBytes, SYSTEM_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from "../../lib/program";
import { ASSOCIATED_TOKEN_PROGRAM, associatedTokenAddress } from "./ata-program";
import { FAUCET_LAMPORTS, faucetKeypair, mintAuthorityKeypair } from "./faucet";
import { deriveKeypair, type LocalKeypair } from "./keys";
import type { Ledger } from "./ledger";
import { COMPUTE_BUDGET_PROGRAM, LOOKUP_TABLE_PROGRAM, MEMO_PROGRAM, type ProgramIds } from "./transaction-executor";
import { rentExemptLamports } from "./state";
import { ALL_LOCAL_MINTS, encodeLookupTable, encodeMint, encodeTokenAccount, type LocalMint, tokenProgramAddress } from "./tokens";
import type { LookupTableAccount } from "./wire";

const BPF_UPGRADEABLE_LOADER = "BPFLoaderUpgradeab1e11111111111111111111111";
const NATIVE_LOADER = "NativeLoader1111111111111111111111111111111";
const WALLET_LAMPORTS = 1_000 * 1_000_000_000;
/** Every wallet starts rich in every mint, so the simulator never runs out. */
const WALLET_TOKEN_UNITS = 10n ** 17n;

export interface WorldOptions {
  seed: string;
  makers: number;
  takers: number;
  crankers: number;
  /** Overrides the seed-derived program id (PROGRAM_ID). */
  programId?: string;
  /** Overrides the seed-derived treasury (TREASURY_ADDRESS). */
  treasury?: string;
}

/**
 * The cast of the local cluster: program ids, the treasury, wallets with
 * token accounts in every mint, and lookup tables; all derived from the seed.
 */
export class World {
  readonly programIdKeypair: LocalKeypair;
  readonly routerKeypair: LocalKeypair;
  readonly programs: ProgramIds;
  readonly makers: LocalKeypair[];
  readonly takers: LocalKeypair[];
  readonly crankers: LocalKeypair[];
  readonly lookupTableAuthority: LocalKeypair;
  readonly mints: readonly LocalMint[] = ALL_LOCAL_MINTS;
  readonly lookupTables: LookupTableAccount[] = [];
  private readonly wallets = new Map<string, LocalKeypair>();
  private readonly tokenAccounts = new Map<string, string>();
  private readonly publicKeys = new Map<string, PublicKey>();
  private readonly escrows = new Map<string, string>();

  constructor(readonly options: WorldOptions) {
    const { seed } = options;
    this.programIdKeypair = deriveKeypair(seed, "program/offer-book");
    this.routerKeypair = deriveKeypair(seed, "program/router");
    const treasury = options.treasury ?? deriveKeypair(seed, "treasury").address;
    this.programs = {
      programId: options.programId ?? this.programIdKeypair.address,
      routerProgramId: this.routerKeypair.address,
      treasury,
    };
    this.makers = Array.from({ length: options.makers }, (_, i) => deriveKeypair(seed, `maker/${i}`));
    this.takers = Array.from({ length: options.takers }, (_, i) => deriveKeypair(seed, `taker/${i}`));
    this.crankers = Array.from({ length: options.crankers }, (_, i) => deriveKeypair(seed, `cranker/${i}`));
    this.lookupTableAuthority = deriveKeypair(seed, "lookup-table-authority");
    for (const k of [...this.makers, ...this.takers, ...this.crankers]) this.wallets.set(k.address, k);
  }

  wallet(address: string): LocalKeypair | undefined {
    return this.wallets.get(address);
  }

  /** One PublicKey object per address, so web3.js's base58 conversion is memoized by identity. */
  publicKey(address: string): PublicKey {
    let key = this.publicKeys.get(address);
    if (!key) {
      key = new PublicKey(address);
      if (this.publicKeys.size >= 200_000) this.publicKeys.clear();
      this.publicKeys.set(address, key);
    }
    return key;
  }

  mint(address: string): LocalMint {
    const mint = this.mints.find((m) => m.address === address);
    if (!mint) throw new Error(`unknown mint ${address}`);
    return mint;
  }

  tokenProgramOf(mintAddress: string): string {
    return tokenProgramAddress(this.mint(mintAddress).tokenProgram);
  }

  /** The owner's associated token account for the mint (under the mint's token program). */
  tokenAccount(owner: string, mint: string): string {
    const key = `${owner}:${mint}`;
    let address = this.tokenAccounts.get(key);
    if (!address) {
      address = associatedTokenAddress(owner, mint, this.tokenProgramOf(mint));
      this.tokenAccounts.set(key, address);
    }
    return address;
  }

  /**
   * The offer's escrow: an address derived from the offer with a seed
   * (sha256(offer ‖ "escrow" ‖ token program), lib/program's escrowAddressBytes,
   * which the explorer's transactions use too), owned by the offer PDA. It is
   * not an ATA because finding one costs a curve search per offer; the indexer
   * never reads escrows.
   */
  escrowOf(offer: string, tokenProgram: string): string {
    const key = `${offer}:${tokenProgram}`;
    let escrow = this.escrows.get(key);
    if (escrow === undefined) {
      escrow = bs58.encode(escrowAddressBytes(offer, tokenProgram));
      if (this.escrows.size >= 200_000) this.escrows.clear();
      this.escrows.set(key, escrow);
    }
    return escrow;
  }

  /** Writes the genesis accounts into the ledger's state. */
  installGenesis(ledger: Ledger): void {
    const state = ledger.state;
    const executable = (address: string, owner: string, data: Uint8Array) =>
      state.set(address, { lamports: rentExemptLamports(data.length), owner, data, executable: true });
    const programData = (address: string) => {
      const data = new Uint8Array(36);
      data[0] = 2;
      data.set(createHash("sha256").update(`programdata/${address}`).digest(), 4);
      return data;
    };
    executable(this.programs.programId, BPF_UPGRADEABLE_LOADER, programData(this.programs.programId));
    executable(this.programs.routerProgramId, BPF_UPGRADEABLE_LOADER, programData(this.programs.routerProgramId));
    for (const native of [SYSTEM_PROGRAM_ADDRESS, COMPUTE_BUDGET_PROGRAM]) executable(native, NATIVE_LOADER, new Uint8Array(0));
    for (const bpf of [TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS, ASSOCIATED_TOKEN_PROGRAM, MEMO_PROGRAM]) {
      executable(bpf, BPF_UPGRADEABLE_LOADER, programData(bpf));
    }

    const mintAuthority = mintAuthorityKeypair(this.options.seed).publicKeyBytes;
    for (const mint of this.mints) {
      const data = encodeMint({ mintAuthority, supply: 10n ** 18n, decimals: mint.decimals, kind: mint.tokenProgram, risky: mint.risky });
      state.set(mint.address, { lamports: rentExemptLamports(data.length), owner: tokenProgramAddress(mint.tokenProgram), data, executable: false });
    }

    const fund = (owner: string, mints: readonly LocalMint[], amount: bigint) => {
      state.set(owner, { lamports: WALLET_LAMPORTS, owner: SYSTEM_PROGRAM_ADDRESS, data: new Uint8Array(0), executable: false });
      for (const mint of mints) {
        const data = encodeTokenAccount({ mint: bs58.decode(mint.address), owner: bs58.decode(owner), amount, kind: mint.tokenProgram });
        state.set(this.tokenAccount(owner, mint.address), {
          lamports: rentExemptLamports(data.length),
          owner: tokenProgramAddress(mint.tokenProgram),
          data,
          executable: false,
        });
      }
    };
    for (const wallet of this.wallets.values()) fund(wallet.address, this.mints, WALLET_TOKEN_UNITS);
    state.set(faucetKeypair(this.options.seed).address, { lamports: FAUCET_LAMPORTS, owner: SYSTEM_PROGRAM_ADDRESS, data: new Uint8Array(0), executable: false });
    fund(this.programs.treasury, this.mints, 0n);

    this.installLookupTables(ledger);
  }

  private installLookupTables(ledger: Ledger): void {
    const programs = [TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS, SYSTEM_PROGRAM_ADDRESS];
    const shared = [...programs, ...this.mints.map((m) => m.address), ...this.mints.map((m) => this.tokenAccount(this.programs.treasury, m.address))];
    const makerAccounts = this.makers.flatMap((m) => [m.address, ...this.mints.map((mint) => this.tokenAccount(m.address, mint.address))]);
    const tables: string[][] = [shared];
    for (let i = 0; i < makerAccounts.length; i += 256) tables.push(makerAccounts.slice(i, i + 256));
    tables.forEach((addresses, i) => {
      const key = deriveKeypair(this.options.seed, `lookup-table/${i}`).address;
      const data = encodeLookupTable({
        authority: this.lookupTableAuthority.publicKeyBytes,
        lastExtendedSlot: BigInt(ledger.options.firstSlot),
        addresses: addresses.map((a) => bs58.decode(a)),
      });
      ledger.state.set(key, { lamports: rentExemptLamports(data.length), owner: LOOKUP_TABLE_PROGRAM, data, executable: false });
      this.lookupTables.push({ key, addresses });
    });
  }
}
