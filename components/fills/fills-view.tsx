"use client";

import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo, useState } from "react";
import { fillsHref, type FillFilterValues, type ParsedFilters } from "@/client/fill-filters";
import { fillsCsv } from "@/client/fills-csv";
import type { FillList, Token } from "@/client/types";
import { useFills } from "../data/queries";
import { NewRowsPill, useHeldRows } from "../live/held-rows";
import { useLiveFeed } from "../live/live-provider";
import { fetchTokens } from "../data/tokens";
import { Panel } from "../ui/panel";
import { ErrorState, StaleNote } from "../ui/states";
import { FillFiltersForm } from "./fill-filters-form";
import { fillKey } from "@/client/fill-rows";
import { FILL_NOUN, FillsTable } from "./fills-table";

const PAGE = 50;

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

export function FillsView({ filters, initial, tokenOptions, feedAfter }: { filters: ParsedFilters; initial: FillList | null; tokenOptions: { mint: string; label: string }[]; feedAfter: string | null }) {
  const queryClient = useQueryClient();
  const query = { ...filters.query, limit: PAGE };
  const { data, error, isFetching } = useFills(query, initial ?? undefined);
  const list = data ?? initial;
  const allRows = useMemo(() => list?.fills ?? [], [list]);
  // New live fills wait behind a pill while the list is on screen (components/live/held-rows.tsx).
  const held = useHeldRows(allRows, fillKey, JSON.stringify(query));
  const rows = held.shown;
  // Rows that were not in the server's first render arrived live: they light up once.
  const [firstKeys] = useState(() => new Set((initial?.fills ?? []).map(fillKey)));
  const fresh = useMemo(() => new Set(rows.map(fillKey).filter((k) => !firstKeys.has(k))), [rows, firstKeys]);
  const [exporting, setExporting] = useState(false);

  const values: FillFilterValues = filters.values;
  const live = !values.cursor;
  // The stream filters by what it can (not taker or time); the merge checks every filter.
  const { tokenMint, paymentMint, maker } = filters.query;
  useLiveFeed(live ? { tokenMint, paymentMint, maker, types: ["fill", "revoke"] } : null, feedAfter);

  async function exportCsv() {
    setExporting(true);
    try {
      const tokens: Token[] = await fetchTokens(queryClient, [...new Set(rows.flatMap((f) => [f.tokenMint, f.paymentMint]))]);
      download(`fills-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, "")}.csv`, fillsCsv(rows, new Map(tokens.map((t) => [t.mint, t]))));
    } finally {
      setExporting(false);
    }
  }

  return (
    <div className="space-y-4">
      <Panel title="Filters">
        <FillFiltersForm key={JSON.stringify(values)} values={values} tokenOptions={tokenOptions} />
        {filters.problems.length > 0 && (
          <p role="alert" className="border-t border-line px-4 py-2 text-sm text-warn">
            Ignored: {filters.problems.join("; ")}.
          </p>
        )}
      </Panel>
      <Panel
        title={
          <span className="flex items-center gap-2">
            Fills
            {live ? (
              <span className="inline-flex items-center gap-1 text-xs font-normal text-bid" title="New fills appear as they are indexed">
                <span className="h-1.5 w-1.5 rounded-full bg-bid" /> live
              </span>
            ) : (
              <span className="text-xs font-normal text-muted">older page</span>
            )}
            {isFetching && <span className="sr-only">updating</span>}
          </span>
        }
        actions={
          <button
            type="button"
            onClick={() => void exportCsv()}
            disabled={rows.length === 0 || exporting}
            className="h-8 rounded-md border border-line px-3 text-xs font-medium hover:bg-raised disabled:opacity-50"
            data-testid="export-csv"
          >
            {exporting ? "Exporting…" : `Export CSV (${rows.length})`}
          </button>
        }
      >
        <StaleNote error={list ? error : null} />
        <NewRowsPill rows={held} noun={FILL_NOUN} />
        {!list && error ? (
          <ErrorState title="Could not load fills" message={error instanceof Error ? error.message : undefined} />
        ) : (
          <FillsTable fills={rows} fresh={fresh} emptyTitle="No fills match these filters" />
        )}
        <nav aria-label="Pages" className="flex items-center justify-between gap-2 border-t border-line px-4 py-3 text-sm">
          {values.cursor ? (
            <Link href={fillsHref({ ...values, cursor: undefined })} className="rounded-md border border-line px-3 py-1.5 hover:bg-raised">
              ← Newest
            </Link>
          ) : (
            <span />
          )}
          {list?.nextCursor ? (
            <Link href={fillsHref({ ...values, cursor: list.nextCursor })} className="rounded-md border border-line px-3 py-1.5 hover:bg-raised" data-testid="older-page">
              Older →
            </Link>
          ) : (
            <span className="text-xs text-muted">{rows.length > 0 ? "End of the feed" : ""}</span>
          )}
        </nav>
      </Panel>
    </div>
  );
}
