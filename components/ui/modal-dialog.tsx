"use client";

import { type ReactNode, useEffect, useId, useRef } from "react";

// A modal on the browser's own <dialog> opened with showModal(): the page
// behind turns inert (neither clickable nor reachable by Tab or a screen
// reader), the dialog sits in the top layer above every stacking context, and
// Escape asks it to close. Two things the element leaves to us: Tab wraps
// within the dialog (rather than leaving for the browser's toolbar), and focus
// goes back to what opened it, since React removes the element rather than
// closing it.

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function ModalDialog({ title, onClose, children, testId }: { title: ReactNode; onClose: () => void; children: ReactNode; testId?: string }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  }, [onClose]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    // showModal focuses the first focusable element (the × button); the first field is where a trader starts.
    const first = dialog.querySelector<HTMLElement>("input:not([disabled]), select:not([disabled])");
    first?.focus();
    return () => {
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  const onKeyDown = (e: React.KeyboardEvent<HTMLDialogElement>) => {
    if (e.key !== "Tab") return;
    const items = [...e.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null || el === document.activeElement);
    if (items.length === 0) return;
    const [first, last] = [items[0]!, items[items.length - 1]!];
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  return (
    // Clicks stay in the dialog (it may sit inside a clickable book row); one on the backdrop (the dialog element itself, outside the panel) closes it.
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      className="m-auto max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-lg cursor-default overflow-y-auto rounded-xl border border-line bg-panel p-0 text-left text-fg shadow-xl backdrop:bg-black/50"
      data-testid={testId}
      onCancel={(e) => {
        e.preventDefault();
        closeRef.current();
      }}
      onKeyDown={onKeyDown}
      onClick={(e) => {
        e.stopPropagation();
        if (e.target === e.currentTarget) closeRef.current();
      }}
    >
      <div className="p-5">
        <div className="mb-4 flex items-center justify-between gap-3">
          <h2 id={titleId} className="text-base font-semibold">
            {title}
          </h2>
          <button type="button" className="rounded px-2 text-lg text-muted hover:text-fg" aria-label="Close dialog" onClick={() => closeRef.current()} data-testid={testId ? `${testId}-close` : undefined}>
            ×
          </button>
        </div>
        <div className="[overflow-wrap:anywhere]">{children}</div>
      </div>
    </dialog>
  );
}
