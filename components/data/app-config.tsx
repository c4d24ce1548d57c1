"use client";

import { createContext, useContext, type ReactNode } from "react";
import { DEFAULT_EXPLORER_CONFIG, type ExplorerConfig } from "@/client/explorer";

// What the server knows about this deployment (the cluster), handed to the client once.
const AppConfigContext = createContext<ExplorerConfig>(DEFAULT_EXPLORER_CONFIG);

export function AppConfigProvider({ config, children }: { config: ExplorerConfig; children: ReactNode }) {
  return <AppConfigContext.Provider value={config}>{children}</AppConfigContext.Provider>;
}

export const useAppConfig = () => useContext(AppConfigContext);
