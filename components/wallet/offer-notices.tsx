"use client";

import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { api } from "@/client/api";
import { formatAmount } from "@/client/format";
import { LiveConnection } from "@/client/live-connection";
import { streamPath } from "@/client/live-events";
import { emptyNoticeState, noteFill, noteOffer, noticeText, rememberOffers, type NoticeState, type OfferNotice } from "@/client/offer-notices";
import { tokenLabel, useToken } from "../data/tokens";
import { invalidateBalances } from "./use-balances";

// A connected wallet hears about its own offers: its own stream (maker = the
// wallet), notices in the page, and a browser notification when the user
// turned them on with the bell (the permission is asked on that click only).

const ALERTS_KEY = "offerAlerts";
const MAX_SHOWN = 4;

function alertsWanted(): boolean {
  try {
    return localStorage.getItem(ALERTS_KEY) === "on" && typeof Notification !== "undefined" && Notification.permission === "granted";
  } catch {
    return false;
  }
}

function amountText(raw: string, decimals: number | null | undefined, symbol: string): string {
  const formatted = formatAmount(raw, decimals);
  return `${formatted.text}${formatted.rawOnly ? " raw units" : ""} ${symbol}`;
}

function Notice({ notice, onDismiss, announce }: { notice: OfferNotice; onDismiss: () => void; announce: boolean }) {
  const token = useToken(notice.offer.tokenMint);
  const symbol = tokenLabel(token, notice.offer.tokenMint);
  const text = noticeText(notice, (raw) => amountText(raw, token?.decimals, symbol));
  const announced = useRef(false);

  useEffect(() => {
    if (!announce || announced.current) return;
    announced.current = true;
    try {
      new Notification(text.title, { body: text.body, tag: notice.key });
    } catch {
      // Some browsers allow notifications only from a service worker: the page's notice stays.
    }
  }, [announce, notice.key, text.title, text.body]);

  return (
    <li role="status" className="pointer-events-auto rounded-xl border border-line bg-panel p-3 text-sm shadow-xl" data-testid="offer-notice" data-kind={notice.kind} data-offer={notice.offer.pda}>
      <div className="flex items-start gap-3">
        <div className="min-w-0 flex-1">
          <p className="font-semibold">{text.title}</p>
          <p className="mt-0.5 text-muted">{text.body}</p>
          <Link href={`/offers/${notice.offer.pda}`} className="mt-1 inline-block text-xs text-accent hover:underline">
            Open the offer
          </Link>
        </div>
        <button type="button" onClick={onDismiss} aria-label="Dismiss notice" className="-m-1 rounded-md p-1 text-muted hover:bg-raised hover:text-fg">
          <svg viewBox="0 0 16 16" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="1.75" aria-hidden>
            <path d="M4 4l8 8M12 4l-8 8" />
          </svg>
        </button>
      </div>
    </li>
  );
}

/** Listens for changes to the wallet's offers and shows them; renders the notices over the page. */
export function OfferNotices({ maker }: { maker: string }) {
  const [notices, setNotices] = useState<{ notice: OfferNotice; announce: boolean }[]>([]);
  const queryClient = useQueryClient();

  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    let state: NoticeState = emptyNoticeState();
    const shown = new Set<string>();
    const seed = new AbortController();
    // What the wallet's open offers are now, so the first change to each says what changed.
    api
      .makerOffers(maker, { status: "open", limit: 200 }, seed.signal)
      .then((list) => {
        state = rememberOffers(state, list.offers);
      })
      .catch(() => {});
    const connection = new LiveConnection({
      url: (after) => streamPath({ maker, types: ["fill", "offer"] }, after),
      onStatus: () => {},
      onEvent: (event) => {
        if (event.type === "fill") {
          state = noteFill(state, event.fill);
          // A fill of the wallet's own offer moved its tokens.
          void invalidateBalances(queryClient);
        }
        if (event.type !== "offer") return;
        const result = noteOffer(state, event.offer);
        state = result.state;
        const notice = result.notice;
        if (!notice || shown.has(notice.key)) return;
        shown.add(notice.key);
        setNotices((list) => [{ notice, announce: alertsWanted() }, ...list].slice(0, MAX_SHOWN));
      },
    });
    // Hidden tabs close the stream unless browser notifications are on: then they are the point.
    const follow = () => (document.hidden && !alertsWanted() ? connection.pause() : connection.start());
    follow();
    document.addEventListener("visibilitychange", follow);
    return () => {
      seed.abort();
      document.removeEventListener("visibilitychange", follow);
      connection.stop();
    };
  }, [maker, queryClient]);

  if (notices.length === 0 || typeof document === "undefined") return null;
  // The header's backdrop blur would trap a fixed box: the notices live at the end of the body.
  return createPortal(
    <ol aria-label="Notices about your offers" className="pointer-events-none fixed bottom-4 right-4 z-50 flex w-80 max-w-[calc(100vw-2rem)] flex-col gap-2">
      {notices.map(({ notice, announce }) => (
        <Notice key={notice.key} notice={notice} announce={announce} onDismiss={() => setNotices((list) => list.filter((n) => n.notice.key !== notice.key))} />
      ))}
    </ol>,
    document.body,
  );
}

/** The bell: turns browser notifications about the wallet's offers on or off, asking permission on the click. */
export function AlertsToggle() {
  // The wallet panel renders in the browser only (never on the server), so these read the browser directly.
  const [on, setOn] = useState(alertsWanted);
  const [denied, setDenied] = useState(() => typeof Notification !== "undefined" && Notification.permission === "denied");

  if (typeof Notification === "undefined") return null;

  async function toggle() {
    if (on) {
      localStorage.setItem(ALERTS_KEY, "off");
      setOn(false);
      return;
    }
    const permission = Notification.permission === "default" ? await Notification.requestPermission() : Notification.permission;
    setDenied(permission === "denied");
    if (permission !== "granted") return;
    localStorage.setItem(ALERTS_KEY, "on");
    setOn(true);
  }

  const label = denied ? "Browser notifications are blocked for this site (allow them in the browser's site settings)" : on ? "Turn off browser notifications about your offers" : "Notify me in the browser when my offers fill, expire or are cancelled";
  return (
    <button
      type="button"
      onClick={() => void toggle()}
      aria-pressed={on}
      aria-label={label}
      title={label}
      data-testid="alerts-toggle"
      className={`inline-flex h-9 w-9 items-center justify-center rounded-lg border border-line hover:bg-raised ${on ? "text-accent" : "text-muted"}`}
    >
      <svg viewBox="0 0 24 24" className="h-4 w-4" fill={on ? "currentColor" : "none"} stroke="currentColor" strokeWidth="1.75" aria-hidden>
        <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
        <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
      </svg>
      {denied && <span className="sr-only">blocked</span>}
    </button>
  );
}
