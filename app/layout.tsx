import type { Metadata, Viewport } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { Providers } from "@/components/data/providers";
import { SiteHeader } from "@/components/layout/site-header";
import { clusterGenesisHash } from "@/web/cluster-genesis";
import { env } from "@/platform/env";
import { clusterKind } from "@/client/cluster";
import type { ExplorerConfig } from "@/client/explorer";
import { THEME_SCRIPT } from "@/client/theme";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Offer Book Explorer", template: "%s · Offer Book Explorer" },
  description: "Order books, fills and makers of the Solana offer-book program, in human units.",
};

export const viewport: Viewport = {
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#f6f7f9" },
    { media: "(prefers-color-scheme: dark)", color: "#0b0d12" },
  ],
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const config = env();
  const genesisHash = await clusterGenesisHash();
  const explorer: ExplorerConfig = {
    rpcUrl: config.PUBLIC_SOLANA_RPC_URL ?? config.SOLANA_RPC_URL ?? null,
    localCluster: config.LOCAL_DEMO_CLUSTER,
    cluster: clusterKind(genesisHash, config.LOCAL_DEMO_CLUSTER),
    genesisHash,
    programId: config.PROGRAM_ID ?? null,
    treasury: config.TREASURY_ADDRESS ?? null,
  };
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body className="min-h-screen bg-surface text-fg">
        <Providers config={explorer}>
          <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-panel focus:px-3 focus:py-2">
            Skip to content
          </a>
          <SiteHeader cluster={explorer.cluster} />
          {/* At least a screen tall: the footer starts below the fold, so content arriving late never pushes it across the screen (layout shift). */}
          <main id="main" className="mx-auto min-h-screen max-w-7xl px-4 py-6">
            {children}
          </main>
          <footer className="mx-auto max-w-7xl px-4 pb-8 pt-2 text-xs text-muted">
            Amounts in whole tokens from each mint&apos;s decimals; hover a number for its exact and raw value. Data from the{" "}
            <Link href="/v1" prefetch={false} className="underline">
              /v1 API
            </Link>
            .
          </footer>
        </Providers>
      </body>
    </html>
  );
}
