"use client";

import { useSyncExternalStore } from "react";
import { getWalletSession, subscribeWalletSession, type WalletSessionState } from "@/client/wallet-session";

const UNLOADED: WalletSessionState = { status: "unloaded" };

/** The connected wallet, whichever component holds the adapter (see client/wallet-session). */
export function useWalletSession(): WalletSessionState {
  return useSyncExternalStore(subscribeWalletSession, getWalletSession, () => UNLOADED);
}
