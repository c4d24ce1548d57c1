"use client";

import { useSyncExternalStore } from "react";

// The theme lives on <html class="dark">, set before first paint by THEME_SCRIPT (client/theme.ts).


const listeners = new Set<() => void>();
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};
const isDark = () => document.documentElement.classList.contains("dark");

export function ThemeToggle() {
  const dark = useSyncExternalStore(subscribe, isDark, () => null);
  const toggle = () => {
    const next = !isDark();
    document.documentElement.classList.toggle("dark", next);
    try {
      localStorage.setItem("theme", next ? "dark" : "light");
    } catch {
      // private mode: the choice lasts this page only
    }
    listeners.forEach((l) => l());
  };
  return (
    <button
      type="button"
      onClick={toggle}
      className="inline-flex h-9 w-9 items-center justify-center rounded-lg border border-line text-muted hover:bg-raised hover:text-fg focus-visible:outline-2 focus-visible:outline-accent"
      aria-label={dark ? "Switch to light theme" : "Switch to dark theme"}
      title="Toggle theme"
    >
      <svg viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor" aria-hidden>
        {dark ? (
          <g stroke="currentColor" strokeWidth="1.6" strokeLinecap="round">
            <circle cx="10" cy="10" r="3.2" />
            <path d="M10 2.5v1.8M10 15.7v1.8M2.5 10h1.8M15.7 10h1.8M4.7 4.7l1.3 1.3M14 14l1.3 1.3M4.7 15.3L6 14M14 6l1.3-1.3" fill="none" />
          </g>
        ) : (
          <path d="M15.3 12.6A6.5 6.5 0 017.4 4.7a6.5 6.5 0 107.9 7.9z" />
        )}
      </svg>
    </button>
  );
}
