import { ed25519 } from "@noble/curves/ed25519";
import { Keypair, VersionedTransaction } from "@solana/web3.js";
import bs58 from "bs58";
import type { BrowserContext, Page } from "playwright-core";
import { jsonRpc } from "../../lib/rpc/json-rpc";

// Wallet Standard wallets injected into a page before any page script runs,
// as a browser extension would: they answer the app's
// `wallet-standard:app-ready` event (and announce themselves with
// `wallet-standard:register-wallet`). The page side holds no key: each
// signing request crosses to Node through a Playwright binding and is signed
// there with the test's keypair, so a test can act as several wallets (one
// per context, or several in one page under different names) and sees every
// transaction signed and sent.

export const TEST_WALLET_NAME = "E2E Wallet";

export interface TestWallet {
  /** As the wallet menu lists it. */
  readonly name: string;
  readonly address: string;
  readonly keypair: Keypair;
  /** Every transaction signed, serialized, in order (signTransaction and signAndSendTransaction). */
  readonly signed: Uint8Array[];
  /** Signatures of the transactions this wallet sent itself (signAndSendTransaction). */
  readonly sent: string[];
  /** Messages signed (signMessage). */
  readonly messages: Uint8Array[];
  /** False: the next requests are refused as a person declining in the wallet would ("User rejected the request"). */
  approve: boolean;
}

export interface TestWalletOptions {
  /** Default TEST_WALLET_NAME; give each wallet in one page its own. */
  name?: string;
  /** The RPC the wallet sends through for solana:signAndSendTransaction; without it the wallet offers signTransaction only (the app then sends). */
  rpcUrl?: string;
}

type SignRequest = { kind: "transaction"; base64: string; send: boolean; skipPreflight?: boolean } | { kind: "message"; base64: string };

let bindings = 0;

const fromBase64 = (text: string) => new Uint8Array(Buffer.from(text, "base64"));
const toBase64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

function sendRaw(rpcUrl: string, signed: Uint8Array, skipPreflight: boolean): Promise<string> {
  return jsonRpc<string>(rpcUrl, "sendTransaction", [toBase64(signed), { encoding: "base64", skipPreflight, preflightCommitment: "confirmed" }]);
}

/**
 * Injects a Wallet Standard wallet that signs with `keypair` (in Node) into
 * every page of `target` opened after this call. Features: standard:connect,
 * standard:disconnect, standard:events, solana:signTransaction,
 * solana:signMessage, and solana:signAndSendTransaction when `rpcUrl` is given.
 */
export async function injectTestWallet(target: BrowserContext | Page, keypair: Keypair, options: TestWalletOptions = {}): Promise<TestWallet> {
  const wallet: TestWallet = {
    name: options.name ?? TEST_WALLET_NAME,
    address: keypair.publicKey.toBase58(),
    keypair,
    signed: [],
    sent: [],
    messages: [],
    approve: true,
  };
  const binding = `__e2eWalletSign${++bindings}`;
  await target.exposeBinding(binding, async (_source, request: SignRequest): Promise<string> => {
    if (!wallet.approve) throw new Error("User rejected the request.");
    const bytes = fromBase64(request.base64);
    if (request.kind === "message") {
      wallet.messages.push(bytes);
      return toBase64(ed25519.sign(bytes, keypair.secretKey.slice(0, 32)));
    }
    const transaction = VersionedTransaction.deserialize(bytes);
    transaction.sign([keypair]);
    const signed = transaction.serialize();
    wallet.signed.push(signed);
    if (!request.send) return toBase64(signed);
    if (!options.rpcUrl) throw new Error("this test wallet was given no rpcUrl to send through");
    const signature = await sendRaw(options.rpcUrl, signed, request.skipPreflight ?? false);
    wallet.sent.push(signature);
    return toBase64(bs58.decode(signature));
  });
  await addWalletScript(target, { address: wallet.address, name: wallet.name, binding, canSend: Boolean(options.rpcUrl) });
  return wallet;
}

/** A wallet that connects as `address` and refuses to sign: for tests that only need a connected address. */
export async function injectStandardWallet(target: BrowserContext | Page, address: string, name = TEST_WALLET_NAME): Promise<void> {
  await addWalletScript(target, { address, name, binding: null, canSend: false });
}

interface WalletScriptArgs {
  address: string;
  name: string;
  /** The Node binding that signs; null: signing is refused. */
  binding: string | null;
  canSend: boolean;
}

async function addWalletScript(target: BrowserContext | Page, args: WalletScriptArgs): Promise<void> {
  await target.addInitScript(
    ({ address, publicKey, name, binding, canSend }) => {
      type Listener = (properties: unknown) => void;
      type Input = { account: { address: string }; transaction?: Uint8Array; message?: Uint8Array; options?: { skipPreflight?: boolean } };
      const chains = ["solana:mainnet", "solana:devnet", "solana:testnet", "solana:localnet"];
      const signing = ["solana:signTransaction", "solana:signMessage", ...(canSend ? ["solana:signAndSendTransaction"] : [])];
      const account = { address, publicKey: new Uint8Array(publicKey), chains, features: signing, label: name };
      const listeners: Listener[] = [];
      const emit = () => listeners.forEach((l) => l({ accounts: wallet.accounts }));
      const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
      const bytesOf = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
      const sign = async (request: Record<string, unknown>): Promise<Uint8Array> => {
        if (!binding) throw new Error(`${name} holds no key: it cannot sign`);
        const call = (window as unknown as Record<string, (r: unknown) => Promise<string>>)[binding]!;
        return bytesOf(await call(request));
      };
      const checked = (input: Input) => {
        if (wallet.accounts.length === 0 || input.account.address !== address) throw new Error(`${name} is not connected with ${input.account.address}`);
        return input;
      };
      const features: Record<string, unknown> = {
        "standard:connect": {
          version: "1.0.0",
          connect: async () => {
            wallet.accounts = [account];
            emit();
            return { accounts: wallet.accounts };
          },
        },
        "standard:disconnect": {
          version: "1.0.0",
          disconnect: async () => {
            wallet.accounts = [];
            emit();
          },
        },
        "standard:events": {
          version: "1.0.0",
          on: (event: string, listener: Listener) => {
            if (event !== "change") return () => {};
            listeners.push(listener);
            return () => listeners.splice(listeners.indexOf(listener) >>> 0, 1);
          },
        },
        "solana:signTransaction": {
          version: "1.0.0",
          supportedTransactionVersions: ["legacy", 0],
          signTransaction: async (...inputs: Input[]) => {
            const out = [];
            for (const input of inputs) out.push({ signedTransaction: await sign({ kind: "transaction", base64: b64(checked(input).transaction!), send: false }) });
            return out;
          },
        },
        "solana:signMessage": {
          version: "1.1.0",
          signMessage: async (...inputs: Input[]) => {
            const out = [];
            for (const input of inputs) {
              const message = checked(input).message!;
              out.push({ signedMessage: message, signature: await sign({ kind: "message", base64: b64(message) }), signatureType: "ed25519" });
            }
            return out;
          },
        },
      };
      if (canSend) {
        features["solana:signAndSendTransaction"] = {
          version: "1.0.0",
          supportedTransactionVersions: ["legacy", 0],
          signAndSendTransaction: async (...inputs: Input[]) => {
            const out = [];
            for (const input of inputs) {
              const request = { kind: "transaction", base64: b64(checked(input).transaction!), send: true, skipPreflight: input.options?.skipPreflight };
              out.push({ signature: await sign(request) });
            }
            return out;
          },
        };
      }
      const wallet = {
        version: "1.0.0",
        name,
        icon: "data:image/svg+xml;base64," + btoa('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#4f46e5"/></svg>'),
        chains,
        accounts: [] as (typeof account)[],
        features,
      };
      const register = ({ register }: { register: (w: unknown) => void }) => register(wallet);
      window.dispatchEvent(new CustomEvent("wallet-standard:register-wallet", { detail: register }));
      window.addEventListener("wallet-standard:app-ready", (event) => register((event as CustomEvent).detail));
    },
    { ...args, publicKey: [...bs58.decode(args.address)] },
  );
}
