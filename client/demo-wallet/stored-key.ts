import bs58 from "bs58";

// The demo wallet's secret key lives in this browser's localStorage and
// nowhere else, tied to the genesis hash of the local cluster it was funded
// on: a restarted cluster with a new chain makes it worthless, so it is
// forgotten rather than shown with an empty balance.

const STORAGE_KEY = "demoWallet";

export const DEMO_WALLET_NAME = "Demo wallet";

interface StoredDemoKey {
  genesisHash: string;
  /** base58 of the 64-byte ed25519 secret key (seed and public key) */
  secretKey: string;
}

/** The stored key for this chain, or null (none, another chain's, or storage unavailable). */
export function loadDemoKey(genesisHash: string): Uint8Array | null {
  try {
    const text = localStorage.getItem(STORAGE_KEY);
    if (!text) return null;
    const stored = JSON.parse(text) as Partial<StoredDemoKey>;
    if (stored.genesisHash !== genesisHash || typeof stored.secretKey !== "string") return null;
    const secretKey = bs58.decode(stored.secretKey);
    return secretKey.length === 64 ? secretKey : null;
  } catch {
    return null;
  }
}

export function hasDemoKey(genesisHash: string): boolean {
  return loadDemoKey(genesisHash) !== null;
}

export function saveDemoKey(genesisHash: string, secretKey: Uint8Array): void {
  const stored: StoredDemoKey = { genesisHash, secretKey: bs58.encode(secretKey) };
  localStorage.setItem(STORAGE_KEY, JSON.stringify(stored));
}

export function forgetDemoKey(): void {
  localStorage.removeItem(STORAGE_KEY);
}
