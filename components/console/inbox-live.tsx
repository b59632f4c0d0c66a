"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { InboxRequestView } from "@/server/surfaces/console/inbox";
import { LocalTime } from "./local-time";

const KEEP = 100;
const POLL_MS = 2000;

// The sandbox inbox's requests, newest first, growing as requests arrive: Server-Sent Events from
// /console/apps/{id}/inbox/events, or, where EventSource is missing or its stream keeps failing
// (a proxy that buffers), polling /console/apps/{id}/inbox/requests every 2 s.
export function InboxLive({ appId, initial }: { appId: number; initial: InboxRequestView[] }) {
  const [requests, setRequests] = useState(initial);
  const [mode, setMode] = useState<"live" | "polling" | "connecting">("connecting");
  // The newest id shown: the feed asks for what came after it.
  const last = useRef(initial[0]?.id ?? 0);

  const add = useCallback((fresh: InboxRequestView[]) => {
    const newer = fresh.filter((r) => r.id > last.current).sort((a, b) => b.id - a.id);
    if (newer.length === 0) return;
    last.current = newer[0]!.id;
    setRequests((old) => [...newer, ...old].slice(0, KEEP));
  }, []);

  // A refreshed page (after saving the answer setting) brings the server's list: take what is new in it.
  useEffect(() => add(initial), [add, initial]);

  useEffect(() => {
    let stopped = false;
    let poll: ReturnType<typeof setInterval> | undefined;
    let source: EventSource | undefined;
    const startPolling = () => {
      if (poll || stopped) return;
      setMode("polling");
      poll = setInterval(async () => {
        const res = await fetch(`/console/apps/${appId}/inbox/requests?after=${last.current}`, {
          headers: { Accept: "application/json" },
        }).catch(() => null);
        if (res?.ok) add(((await res.json()) as { requests: InboxRequestView[] }).requests);
      }, POLL_MS);
    };
    if (typeof EventSource === "undefined") startPolling();
    else {
      let failures = 0;
      source = new EventSource(`/console/apps/${appId}/inbox/events?after=${last.current}`);
      source.onopen = () => {
        failures = 0;
        setMode("live");
      };
      source.addEventListener("request", (event) => {
        add([JSON.parse((event as MessageEvent<string>).data) as InboxRequestView]);
      });
      // EventSource reconnects by itself (the server ends each stream after a while); a stream that
      // fails again and again, or is refused outright, gives way to polling.
      source.onerror = () => {
        failures += 1;
        if (source!.readyState === EventSource.CLOSED || failures >= 3) {
          source!.close();
          startPolling();
        }
      };
    }
    return () => {
      stopped = true;
      source?.close();
      clearInterval(poll);
    };
  }, [appId, add]);

  return (
    <div className="flex flex-col gap-3">
      <p role="status" className="text-sm text-slate-700" data-testid="inbox-status">
        {requests.length === 0
          ? "No requests yet."
          : `${requests.length} request${requests.length === 1 ? "" : "s"}, newest first.`}{" "}
        {mode === "live"
          ? "New requests appear here as they arrive."
          : mode === "polling"
            ? "Checking for new requests every 2 seconds."
            : "Connecting…"}
      </p>
      <ol className="flex flex-col gap-3" aria-label="Requests received">
        {requests.map((r) => (
          <InboxRequest key={r.id} request={r} />
        ))}
      </ol>
    </div>
  );
}

function prettyBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function InboxRequest({ request: r }: { request: InboxRequestView }) {
  const verdict =
    r.signatureValid === null
      ? { text: "Not signed", tone: "bg-slate-100 text-slate-900 ring-slate-300" }
      : r.signatureValid
        ? { text: "Signature verifies", tone: "bg-green-50 text-green-900 ring-green-300" }
        : { text: "Signature does not verify", tone: "bg-red-50 text-red-900 ring-red-300" };
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid={`inbox-request-${r.id}`}>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-mono font-semibold">{r.method}</span>
        <LocalTime iso={r.receivedAt} wire={r.receivedAtWire} />
        <span className="rounded-full bg-slate-100 px-2 py-0.5 font-semibold text-slate-900 ring-1 ring-slate-300">
          answered {r.answerStatus}
        </span>
        <span
          className={`rounded-full px-2 py-0.5 font-semibold ring-1 ${verdict.tone}`}
          data-testid="signature-verdict"
        >
          {verdict.text}
        </span>
      </div>
      <p className="mt-1 text-sm text-slate-700">{r.signatureNote}</p>
      <details className="mt-2">
        <summary className="min-h-11 cursor-pointer content-center text-sm font-semibold text-slate-900">
          Headers ({r.headers.length})
        </summary>
        <dl className="grid gap-x-3 gap-y-1 text-sm sm:grid-cols-[14rem_1fr]">
          {r.headers.map(([name, value]) => (
            <div key={name} className="contents">
              <dt className="font-mono font-semibold break-all">{name}</dt>
              <dd className="font-mono break-all">{value}</dd>
            </div>
          ))}
        </dl>
      </details>
      <pre
        className="mt-2 max-h-96 overflow-auto rounded-lg bg-slate-100 p-3 text-sm whitespace-pre-wrap break-all"
        tabIndex={0}
        aria-label={`Body of request ${r.id}`}
      >
        {prettyBody(r.body)}
      </pre>
    </li>
  );
}
