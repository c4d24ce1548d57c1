"use client";

import { ErrorState } from "@/components/ui/states";

export default function ExplorerError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <ErrorState
      title="This page could not be loaded"
      message={`The index did not answer (${error.digest ? `ref ${error.digest}` : error.message}). It may be starting up or unreachable.`}
      action={
        <button type="button" onClick={reset} className="rounded-lg border border-line px-3 py-1.5 text-sm hover:bg-raised">
          Try again
        </button>
      }
    />
  );
}
