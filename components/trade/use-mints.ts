"use client";

import { useEffect, useState } from "react";
import { useAppConfig } from "../data/app-config";
import { connectionFor, type MintFacts, readMints } from "./chain";

/** The mints' token programs and decimals from the chain (authoritative for amounts), once per set of mints. */
export function useMintFacts(mints: readonly string[]): { facts: Map<string, MintFacts> | null; error: string | null } {
  const { rpcUrl } = useAppConfig();
  const key = mints.join(",");
  const [state, setState] = useState<{ key: string; facts: Map<string, MintFacts> | null; error: string | null }>({ key: "", facts: null, error: null });
  useEffect(() => {
    if (!rpcUrl || key === "") return;
    let live = true;
    readMints(connectionFor(rpcUrl), key.split(","))
      .then((facts) => live && setState({ key, facts, error: null }))
      .catch((e: unknown) => live && setState({ key, facts: null, error: e instanceof Error ? e.message : String(e) }));
    return () => {
      live = false;
    };
  }, [rpcUrl, key]);
  return state.key === key ? { facts: state.facts, error: state.error } : { facts: null, error: null };
}
