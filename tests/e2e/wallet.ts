import bs58 from "bs58";
import type { BrowserContext } from "playwright-core";

export const TEST_WALLET_NAME = "E2E Wallet";

/**
 * A Wallet Standard wallet, injected before any page script runs, as a
 * browser extension would: it answers the app's `wallet-standard:app-ready`
 * event (and announces itself with `wallet-standard:register-wallet`), and
 * implements standard:connect, standard:disconnect, standard:events and
 * solana:signTransaction for one account.
 */
export async function injectStandardWallet(context: BrowserContext, address: string): Promise<void> {
  await context.addInitScript(
    ({ address, publicKey, name }) => {
      type Listener = (properties: unknown) => void;
      const chains = ["solana:mainnet", "solana:devnet", "solana:testnet", "solana:localnet"];
      const account = { address, publicKey: new Uint8Array(publicKey), chains, features: ["solana:signTransaction"], label: "e2e" };
      const listeners: Record<string, Listener[]> = {};
      const emit = (event: string, properties: unknown) => (listeners[event] ?? []).forEach((l) => l(properties));
      const wallet = {
        version: "1.0.0",
        name,
        icon: "data:image/svg+xml;base64," + btoa('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#4f46e5"/></svg>'),
        chains,
        accounts: [] as (typeof account)[],
        features: {
          "standard:connect": {
            version: "1.0.0",
            connect: async () => {
              wallet.accounts = [account];
              emit("change", { accounts: wallet.accounts });
              return { accounts: wallet.accounts };
            },
          },
          "standard:disconnect": {
            version: "1.0.0",
            disconnect: async () => {
              wallet.accounts = [];
              emit("change", { accounts: wallet.accounts });
            },
          },
          "standard:events": {
            version: "1.0.0",
            on: (event: string, listener: Listener) => {
              (listeners[event] ??= []).push(listener);
              return () => {
                listeners[event] = (listeners[event] ?? []).filter((l) => l !== listener);
              };
            },
          },
          "solana:signTransaction": {
            version: "1.0.0",
            supportedTransactionVersions: ["legacy", 0],
            signTransaction: async (...inputs: { transaction: Uint8Array }[]) => inputs.map((i) => ({ signedTransaction: i.transaction })),
          },
        },
      };
      const register = ({ register }: { register: (w: unknown) => void }) => register(wallet);
      window.dispatchEvent(new CustomEvent("wallet-standard:register-wallet", { detail: register }));
      window.addEventListener("wallet-standard:app-ready", (event) => register((event as CustomEvent).detail));
    },
    { address, publicKey: [...bs58.decode(address)], name: TEST_WALLET_NAME },
  );
}
