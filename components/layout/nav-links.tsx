"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const LINKS = [
  { href: "/", label: "Markets" },
  { href: "/fills", label: "Fills" },
  { href: "/trending", label: "Trending" },
];

export function NavLinks() {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className="order-3 -mx-2.5 flex w-full items-center gap-1 text-sm md:order-2 md:mx-0 md:w-auto">
      {LINKS.map((l) => {
        const active = l.href === "/" ? pathname === "/" || pathname.startsWith("/book") : pathname.startsWith(l.href);
        return (
          <Link
            key={l.href}
            href={l.href}
            aria-current={active ? "page" : undefined}
            className={`rounded-md px-2.5 py-1.5 font-medium ${active ? "bg-raised text-fg" : "text-muted hover:text-fg"}`}
          >
            {l.label}
          </Link>
        );
      })}
      {/* The API reference is a page of its own (no app shell), so a plain link rather than a client-side one. */}
      <a href="/docs" className="rounded-md px-2.5 py-1.5 font-medium text-muted hover:text-fg">
        API
      </a>
    </nav>
  );
}
