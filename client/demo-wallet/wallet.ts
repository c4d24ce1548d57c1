import { ed25519 } from "@noble/curves/ed25519";
import {
  SolanaSignAndSendTransaction,
  SolanaSignMessage,
  SolanaSignTransaction,
  type SolanaSignAndSendTransactionFeature,
  type SolanaSignAndSendTransactionInput,
  type SolanaSignMessageFeature,
  type SolanaSignMessageInput,
  type SolanaSignTransactionFeature,
  type SolanaSignTransactionInput,
} from "@solana/wallet-standard-features";
import { Keypair, VersionedTransaction } from "@solana/web3.js";
import type { Wallet, WalletAccount, WalletIcon } from "@wallet-standard/base";
import {
  StandardConnect,
  StandardDisconnect,
  StandardEvents,
  type StandardConnectFeature,
  type StandardDisconnectFeature,
  type StandardEventsFeature,
  type StandardEventsListeners,
  type StandardEventsNames,
} from "@wallet-standard/features";
import { ReadonlyWalletAccount } from "@wallet-standard/wallet";
import bs58 from "bs58";
import { jsonRpc, waitConfirmed } from "../../lib/rpc/json-rpc";
import { DEMO_WALLET_NAME } from "./stored-key";

// The demo wallet is a Wallet Standard wallet like Phantom, registered in the
// page rather than by an extension: the app reaches it through the same
// adapter path as any real wallet. Its key signs here, in the browser, and
// only signed transactions leave (to the cluster's RPC).

const CHAINS = ["solana:localnet", "solana:devnet", "solana:testnet", "solana:mainnet"] as const;

const ICON: WalletIcon = `data:image/svg+xml;base64,${btoa(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#b45309"/><path d="M9 11h14v12H9z" fill="none" stroke="#fff" stroke-width="2"/><circle cx="19" cy="17" r="1.6" fill="#fff"/></svg>',
)}`;

type DemoWalletFeatures = StandardConnectFeature &
  StandardDisconnectFeature &
  StandardEventsFeature &
  SolanaSignTransactionFeature &
  SolanaSignAndSendTransactionFeature &
  SolanaSignMessageFeature;

export class DemoWallet implements Wallet {
  readonly version = "1.0.0" as const;
  readonly name = DEMO_WALLET_NAME;
  readonly icon = ICON;
  readonly chains = CHAINS;
  readonly #keypair: Keypair;
  readonly #account: WalletAccount;
  readonly #rpcUrl: string;
  #connected = false;
  /** `change` is the only Wallet Standard event. */
  readonly #listeners = new Set<StandardEventsListeners["change"]>();

  constructor(secretKey: Uint8Array, rpcUrl: string) {
    this.#keypair = Keypair.fromSecretKey(secretKey);
    this.#rpcUrl = rpcUrl;
    this.#account = new ReadonlyWalletAccount({
      address: this.#keypair.publicKey.toBase58(),
      publicKey: this.#keypair.publicKey.toBytes(),
      chains: CHAINS,
      features: [SolanaSignTransaction, SolanaSignAndSendTransaction, SolanaSignMessage],
      label: "Demo wallet (local cluster)",
    });
  }

  get address(): string {
    return this.#account.address;
  }

  get accounts(): readonly WalletAccount[] {
    return this.#connected ? [this.#account] : [];
  }

  get features(): DemoWalletFeatures {
    return {
      [StandardConnect]: { version: "1.0.0", connect: async () => this.#setConnected(true) },
      [StandardDisconnect]: { version: "1.0.0", disconnect: async () => void this.#setConnected(false) },
      [StandardEvents]: { version: "1.0.0", on: (event, listener) => this.#on(event, listener) },
      [SolanaSignTransaction]: {
        version: "1.0.0",
        supportedTransactionVersions: ["legacy", 0],
        signTransaction: async (...inputs) => inputs.map((input) => ({ signedTransaction: this.#sign(input) })),
      },
      [SolanaSignAndSendTransaction]: {
        version: "1.0.0",
        supportedTransactionVersions: ["legacy", 0],
        signAndSendTransaction: async (...inputs) => {
          const outputs = [];
          for (const input of inputs) outputs.push({ signature: await this.#signAndSend(input) });
          return outputs;
        },
      },
      [SolanaSignMessage]: {
        version: "1.1.0",
        signMessage: async (...inputs) => inputs.map((input) => this.#signMessage(input)),
      },
    };
  }

  #setConnected(connected: boolean) {
    if (this.#connected !== connected) {
      this.#connected = connected;
      for (const listener of this.#listeners) listener({ accounts: this.accounts });
    }
    return { accounts: this.accounts };
  }

  #on<E extends StandardEventsNames>(event: E, listener: StandardEventsListeners[E]): () => void {
    if (event !== "change") return () => {};
    const change = listener as StandardEventsListeners["change"];
    this.#listeners.add(change);
    return () => void this.#listeners.delete(change);
  }

  #checkAccount(account: WalletAccount) {
    if (!this.#connected || account.address !== this.#account.address) throw new Error("the demo wallet is not connected with this account");
  }

  #sign(input: SolanaSignTransactionInput): Uint8Array {
    this.#checkAccount(input.account);
    const transaction = VersionedTransaction.deserialize(input.transaction as Uint8Array);
    transaction.sign([this.#keypair]);
    return transaction.serialize();
  }

  async #signAndSend(input: SolanaSignAndSendTransactionInput): Promise<Uint8Array> {
    const signed = this.#sign(input);
    const options = input.options ?? {};
    const signature = await jsonRpc<string>(this.#rpcUrl, "sendTransaction", [
      btoa(String.fromCharCode(...signed)),
      {
        encoding: "base64",
        skipPreflight: options.skipPreflight ?? false,
        preflightCommitment: options.preflightCommitment ?? "confirmed",
        ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
        ...(options.minContextSlot === undefined ? {} : { minContextSlot: options.minContextSlot }),
      },
    ]);
    if (options.commitment) await waitConfirmed(this.#rpcUrl, [signature]);
    return bs58.decode(signature);
  }

  #signMessage(input: SolanaSignMessageInput) {
    this.#checkAccount(input.account);
    const message = input.message as Uint8Array;
    return { signedMessage: message, signature: ed25519.sign(message, this.#keypair.secretKey.slice(0, 32)), signatureType: "ed25519" as const };
  }
}
