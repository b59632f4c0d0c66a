"use client";

import { useSyncExternalStore } from "react";

// A moment as a partner reads it: in their browser's time zone, with how long ago ("3 min ago"),
// and the exact wire DateTime (20261123T214648+0000) on hover and when copied. The server knows no
// time zone, so the first render (server and hydration) shows UTC; the local form follows on mount.

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 86_400_000],
  ["month", 30 * 86_400_000],
  ["week", 7 * 86_400_000],
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
  ["second", 1000],
];

// dateStyle and timeStyle cannot be combined with timeZoneName: the parts are spelled out.
const LOCAL_FORMAT: Intl.DateTimeFormatOptions = {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  second: "2-digit",
  timeZoneName: "short",
};

function relativeTime(at: Date, now: Date, locale?: string): string {
  const diff = at.getTime() - now.getTime();
  if (Math.abs(diff) < 45_000) return diff > 0 ? "in a moment" : "just now";
  const [unit, size] = UNITS.find(([, ms]) => Math.abs(diff) >= ms) ?? UNITS.at(-1)!;
  return new Intl.RelativeTimeFormat(locale, { numeric: "auto", style: "short" }).format(Math.round(diff / size), unit);
}

/** 20261125T010203+0000 (the API's DateTime, always UTC on output) as an ISO string. */
export const isoFromWire = (wire: string): string =>
  `${wire.slice(0, 4)}-${wire.slice(4, 6)}-${wire.slice(6, 8)}T${wire.slice(9, 11)}:${wire.slice(11, 13)}:${wire.slice(13, 15)}Z`;

// One clock for every time on the page, ticking every 30 s while any is shown. On the server (and
// while hydrating) there is no clock: null.
let nowMs = Date.now();
const listeners = new Set<() => void>();
let ticker: ReturnType<typeof setInterval> | undefined;
function subscribe(listener: () => void) {
  listeners.add(listener);
  ticker ??= setInterval(() => {
    nowMs = Date.now();
    for (const l of listeners) l();
  }, 30_000);
  // The clock may have stood still while nothing was shown.
  nowMs = Date.now();
  queueMicrotask(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearInterval(ticker);
      ticker = undefined;
    }
  };
}

export function LocalTime({ iso, wire, className = "" }: { iso: string; wire: string; className?: string }) {
  const nowAt = useSyncExternalStore(
    subscribe,
    () => nowMs,
    () => null,
  );
  const now = nowAt === null ? null : new Date(nowAt);
  const at = new Date(iso);
  const shown = now
    ? `${new Intl.DateTimeFormat(undefined, LOCAL_FORMAT).format(at)} · ${relativeTime(at, now)}`
    : `${iso.slice(0, 19).replace("T", " ")} UTC`;
  return (
    <time
      dateTime={iso}
      title={`${wire} (exact, as the API sends it)`}
      data-wire={wire}
      className={className}
      // Copying the shown time copies the exact wire value, which is what goes into an API call or a ticket.
      onCopy={(event) => {
        event.clipboardData.setData("text/plain", wire);
        event.preventDefault();
      }}
    >
      {shown}
    </time>
  );
}
