import type { ReactNode } from "react";

/** Clipped, not a scroll box (overflow: clip): a sticky layer inside, such as the new-rows pill, sticks to the window. */
export function Panel({ title, actions, children, className = "", id }: { title?: ReactNode; actions?: ReactNode; children: ReactNode; className?: string; id?: string }) {
  return (
    <section className={`overflow-clip rounded-xl border border-line bg-panel ${className}`} aria-labelledby={id && title ? `${id}-title` : undefined}>
      {(title || actions) && (
        <header className="flex flex-wrap items-center justify-between gap-2 border-b border-line px-4 py-3">
          {title && (
            <h2 id={id ? `${id}-title` : undefined} className="text-sm font-semibold">
              {title}
            </h2>
          )}
          {actions}
        </header>
      )}
      {children}
    </section>
  );
}

export function PageTitle({ children, sub }: { children: ReactNode; sub?: ReactNode }) {
  return (
    <div className="mb-4 flex flex-col gap-1">
      <h1 className="text-xl font-semibold tracking-tight sm:text-2xl">{children}</h1>
      {sub && <div className="text-sm text-muted">{sub}</div>}
    </div>
  );
}

/** Table cell classes shared by every data table. */
export const th = "px-3 py-2 text-left text-xs font-medium uppercase tracking-wide text-muted whitespace-nowrap";
export const thRight = `${th} text-right`;
export const td = "px-3 py-2 whitespace-nowrap";
export const tdRight = `${td} text-right`;
