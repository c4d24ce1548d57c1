import type { Connection, SendOptions, Transaction, VersionedTransaction } from "@solana/web3.js";

/**
 * The connected wallet as the rest of the page sees it. The wallet adapter
 * (and web3.js under it) loads only when a wallet is used, inside the header's
 * wallet panel; it publishes its state here, so trading controls anywhere on
 * the page can read it and ask for a connection without loading the adapter
 * themselves or mounting a second provider. Types only from web3.js: importing
 * this module adds nothing to a page's bundle.
 */
export interface ConnectedWallet {
  /** base58 public key */
  address: string;
  walletName: string;
  /** The wallet signs (the key never leaves it) and the transaction goes to `connection`; resolves to its signature. */
  sendTransaction(transaction: Transaction | VersionedTransaction, connection: Connection, options?: SendOptions): Promise<string>;
}

export type WalletSessionState =
  | { status: "unloaded" }
  | { status: "disconnected" }
  | { status: "connecting" }
  | { status: "connected"; wallet: ConnectedWallet };

let state: WalletSessionState = { status: "unloaded" };
const listeners = new Set<() => void>();
const connectRequests = new Set<() => void>();

export function getWalletSession(): WalletSessionState {
  return state;
}

export function subscribeWalletSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Called by the wallet panel whenever the adapter's state changes. */
export function publishWalletSession(next: WalletSessionState): void {
  state = next;
  for (const listener of listeners) listener();
}

/** A control that needs a wallet asks the header to load the adapter and open its menu. */
export function requestWalletConnect(): void {
  for (const handler of connectRequests) handler();
}

/** The header's wallet button answers connect requests. */
export function onWalletConnectRequest(handler: () => void): () => void {
  connectRequests.add(handler);
  return () => connectRequests.delete(handler);
}
