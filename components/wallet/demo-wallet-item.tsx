"use client";

import { useState } from "react";
import type { DemoCluster } from "@/client/demo-wallet";

/**
 * "Create demo wallet" in the wallet menu (local demo cluster only): one click
 * makes a key kept in this browser, funds it by airdrop and hands its name to
 * `onCreated`, which connects it like any wallet. The demo wallet's code
 * loads on this click, not before.
 */
export function CreateDemoWallet({ cluster, onCreated, separated }: { cluster: DemoCluster; onCreated: (problems: string[]) => void; separated: boolean }) {
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });

  async function create() {
    setState({ busy: true, error: null });
    try {
      const { createDemoWallet } = await import("@/client/demo-wallet");
      const { problems } = await createDemoWallet(cluster);
      setState({ busy: false, error: null });
      onCreated(problems);
    } catch (error) {
      setState({ busy: false, error: (error as Error).message || String(error) });
    }
  }

  return (
    <div className={separated ? "mb-2 border-b border-line pb-2" : undefined}>
      <button
        role="menuitem"
        type="button"
        onClick={() => void create()}
        disabled={state.busy}
        data-testid="create-demo-wallet"
        className="flex w-full flex-col rounded-lg px-3 py-2 text-left text-sm hover:bg-raised disabled:opacity-60"
      >
        <span className="font-medium">{state.busy ? "Creating and funding demo wallet…" : "Create demo wallet"}</span>
        <span className="text-xs text-muted">A new key kept in this browser only, funded with SOL, USDC, USDT and the book&apos;s tokens on the local cluster.</span>
      </button>
      {state.error && (
        <p role="alert" className="px-3 py-1 text-xs text-ask">
          The demo wallet could not be funded: {state.error}
        </p>
      )}
    </div>
  );
}

/** Registers this browser's earlier demo wallet for the chain, so the adapter can reconnect it (its code loads only when one exists). */
export async function restoreStoredDemoWallet(cluster: DemoCluster): Promise<void> {
  const { restoreDemoWallet } = await import("@/client/demo-wallet");
  restoreDemoWallet(cluster);
}
