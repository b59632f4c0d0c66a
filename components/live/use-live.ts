"use client";

import { useEffect, useRef, useState } from "react";

/** How the page is kept current: pushed over the stream, or polled while the stream is down. */
export type LiveMode = "connecting" | "live" | "polling";

/** After the stream broke, how long the page polls before it tries the stream again. */
const STREAM_RETRY_MS = 30_000;
/** A stream that ends sooner than this after opening counts as broken, not as ended. */
const SHORTEST_STREAM_MS = 5000;

type Options<T> = {
  /** The same-origin Server-Sent Events endpoint (the session cookie goes with it). */
  streamUrl: string | null;
  /** The event name whose data the page takes. */
  event: string;
  /** The JSON route polled while the stream is down; it answers the same shape. */
  pollUrl: string;
  pollMs: number;
  onData: (data: T) => void;
  /** A poll answered 401: the session ended. */
  onSignedOut: () => void;
  /** The feed has nothing more to say (a finished run): close the stream, stop polling. */
  finished?: (data: T) => boolean;
  /** A poll answered 410: what the page follows is gone for good (an ended shared link). */
  onGone?: () => void;
};

// Keeps a page current by push, with polling as the fallback (docs/driver-site.md#live-map): an
// EventSource on the stream; when it fails to open (the endpoint failed, a proxy that does not
// stream, no EventSource) or ends within seconds of opening, the page polls
// `pollUrl` every `pollMs` and tries the stream again after STREAM_RETRY_MS. A stream that ends
// after having served a while (the server's 5-minute lifetime, a restart) is reopened at once. The mode
// is returned so that the page says which it uses ("Live" or "Updating every N s").
export function useLive<T>({ streamUrl, event, pollUrl, pollMs, onData, onSignedOut, finished, onGone }: Options<T>) {
  const [mode, setMode] = useState<LiveMode>("connecting");
  const [problem, setProblem] = useState<string | null>(null);
  // The latest callbacks, without reopening the stream when the page re-renders.
  const handlers = useRef({ onData, onSignedOut, finished, onGone });
  useEffect(() => {
    handlers.current = { onData, onSignedOut, finished, onGone };
  });

  useEffect(() => {
    if (!streamUrl) return;
    let stopped = false;
    let source: EventSource | null = null;
    let pollTimer: ReturnType<typeof setTimeout> | undefined;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let polling = false;

    const end = () => {
      stopped = true;
      source?.close();
      clearTimeout(pollTimer);
      clearTimeout(retryTimer);
    };
    const take = (data: T) => {
      handlers.current.onData(data);
      if (handlers.current.finished?.(data)) end();
    };

    const poll = async () => {
      if (stopped || !polling) return;
      if (document.visibilityState === "visible") {
        try {
          const res = await fetch(pollUrl, { cache: "no-store", headers: { Accept: "application/json" } });
          if (res.status === 401) {
            end();
            handlers.current.onSignedOut();
            return;
          }
          if (res.status === 410 && handlers.current.onGone) {
            end();
            handlers.current.onGone();
            return;
          }
          if (!res.ok) throw new Error(`the server answered ${res.status}`);
          const body = (await res.json()) as T;
          if (!stopped && polling) {
            setProblem(null);
            take(body);
          }
        } catch (error) {
          if (!stopped) setProblem(error instanceof Error ? error.message : "no answer");
        }
      }
      if (!stopped && polling) pollTimer = setTimeout(() => void poll(), pollMs);
    };
    const startPolling = () => {
      if (polling || stopped) return;
      polling = true;
      setMode("polling");
      void poll();
    };
    const stopPolling = () => {
      polling = false;
      clearTimeout(pollTimer);
    };

    const connect = () => {
      if (stopped) return;
      if (typeof EventSource === "undefined") return startPolling();
      let openedAt: number | null = null;
      const es = new EventSource(streamUrl);
      source = es;
      es.onopen = () => {
        openedAt = Date.now();
        stopPolling();
        setProblem(null);
        setMode("live");
      };
      es.addEventListener(event, (e) => {
        if (!stopped) take(JSON.parse((e as MessageEvent<string>).data) as T);
      });
      es.onerror = () => {
        // EventSource would retry on its own, forever and silently: take over instead.
        es.close();
        if (stopped) return;
        // A stream that served a while and ended (its lifetime, a restart) is reopened at once;
        // one that failed to open, or ended at once, means the stream is down: poll for a while.
        if (openedAt !== null && Date.now() - openedAt > SHORTEST_STREAM_MS) return connect();
        startPolling();
        retryTimer = setTimeout(connect, STREAM_RETRY_MS);
      };
    };
    connect();
    return end;
  }, [streamUrl, event, pollUrl, pollMs]);

  return { mode, problem };
}

/** What a page says of its updates: "Live", or how often it polls. */
export function liveLabel(mode: LiveMode, pollMs: number): string {
  if (mode === "polling") return `Updating every ${pollMs / 1000} s`;
  return mode === "live" ? "Live" : "Connecting…";
}
