"use client";

import { useEffect, useState, useSyncExternalStore } from "react";
import { formatAgo, formatWhen } from "@/components/driver/format";
import { LiveStatus } from "@/components/live/live-status";
import { useLive } from "@/components/live/use-live";
import { LazyPositionMap } from "@/components/map/lazy";
import type { Tiles } from "@/components/map/tiles";
import type { SharedEnded, SharedLocation } from "@/server/sharing/service";

const noSubscription = () => () => {};
const viewerZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/** While the stream is down, how often the page asks /share/{token}/position. */
const POLL_MS = 5000;

// A shared location's page (docs/driver-site.md#share-a-live-location), for anyone with the link:
// the vehicle's label, its position on the map moved by the link's stream (the driver's live map's
// mechanism, useLive), when it was last updated and when the link ends, in the viewer's own time
// zone. When the link ends (the stream's `ended`, or a poll's 410) the map goes and the page says so.
export function SharedLocationView({
  token,
  initial,
  tiles,
}: {
  token: string;
  initial: SharedLocation;
  tiles: Tiles;
}) {
  const [view, setView] = useState<SharedLocation | SharedEnded>(initial);
  // The viewer's own time zone, known in the browser only (the driver's is account data).
  const zone = useSyncExternalStore(noSubscription, viewerZone, () => "UTC");
  const [now, setNow] = useState(() => Date.now());
  const base = `/share/${encodeURIComponent(token)}`;
  const ended = () => setView({ state: "ended" });
  const { mode, problem } = useLive<SharedLocation | SharedEnded>({
    streamUrl: view.state === "ended" ? null : `${base}/stream`,
    event: "share",
    pollUrl: `${base}/position`,
    pollMs: POLL_MS,
    onData: (data) => {
      setView(data);
      setNow(Date.now());
    },
    finished: (data) => data.state === "ended",
    onGone: ended,
    // No session is involved: a 401 cannot come from these routes.
    onSignedOut: ended,
  });

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, []);

  if (view.state === "ended")
    return (
      <section className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="share-ended">
        <h1 className="text-xl font-bold">This shared location has ended</h1>
        <p className="mt-2 text-slate-700">The link no longer shows where the vehicle is.</p>
      </section>
    );

  const { position } = view;
  return (
    <section className="flex flex-col gap-3" data-testid="shared-location">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-xl font-bold tracking-tight sm:text-2xl">{view.label}</h1>
        <LiveStatus mode={mode} pollMs={POLL_MS} problem={problem} />
      </div>
      <div className="h-[60vh] min-h-64 overflow-hidden rounded-xl border border-slate-200 bg-slate-100 shadow-sm">
        {position ? (
          <LazyPositionMap vehicleId={0} title={view.label} running={view.running} position={position} tiles={tiles} />
        ) : (
          <p
            className="flex h-full items-center justify-center p-6 text-center text-slate-700"
            data-field="No position"
          >
            {view.paused
              ? "Location is paused: no position is shown for now."
              : "No position yet: the map shows the vehicle once its device reports a location."}
          </p>
        )}
      </div>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
        <dt className="font-medium text-slate-600">Last updated</dt>
        <dd data-field="Last updated" suppressHydrationWarning>
          {position ? (
            <>
              <time dateTime={position.at}>{formatWhen(position.at, zone)}</time> ({formatAgo(position.at, now)})
            </>
          ) : (
            "No position shown"
          )}
        </dd>
        <dt className="font-medium text-slate-600">Link ends</dt>
        <dd data-field="Link ends" suppressHydrationWarning>
          <time dateTime={view.endsAt}>{formatWhen(view.endsAt, zone)}</time>
        </dd>
      </dl>
    </section>
  );
}
