"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import type { ExplorerConfig } from "@/client/explorer";
import { LiveProvider } from "../live/live-provider";
import { AppConfigProvider } from "./app-config";

export function Providers({ config, children }: { config: ExplorerConfig; children: ReactNode }) {
  // One client per browser tab; server-rendered data arrives as initialData, so nothing refetches on mount.
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: { staleTime: 2_000, refetchOnWindowFocus: true, retry: 1 },
        },
      }),
  );
  return (
    <QueryClientProvider client={client}>
      <AppConfigProvider config={config}>
        <LiveProvider>{children}</LiveProvider>
      </AppConfigProvider>
    </QueryClientProvider>
  );
}
