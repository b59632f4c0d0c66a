"use client";

import { useRouter } from "next/navigation";
import { useState, useSyncExternalStore } from "react";
import { Button } from "@/components/ui/button";
import type { ShareLinkOut } from "@/server/sharing/service";
import { formatWhen } from "./format";
import { FormMessage } from "./form-message";
import { sendJson } from "./send";

const noSubscription = () => () => {};

const DURATIONS = [
  ["15m", "15 minutes"],
  ["1h", "1 hour"],
  ["8h", "8 hours"],
  ["24h", "24 hours"],
] as const;

// The vehicle page's "Share live location" (docs/driver-site.md#share-a-live-location): choose how
// long, make the link, copy it (again at any time while it lasts), see how often it was opened, and
// end it at once. The list is the page's (the server's), refreshed after each change.
export function ShareLinks({
  vehicleId,
  shares,
  timeZone,
}: {
  vehicleId: number;
  shares: ShareLinkOut[];
  timeZone: string;
}) {
  const router = useRouter();
  const [duration, setDuration] = useState<(typeof DURATIONS)[number][0]>("1h");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState<number | null>(null);
  // The page's own origin, known in the browser only (the server renders the path alone).
  const origin = useSyncExternalStore(
    noSubscription,
    () => window.location.origin,
    () => "",
  );
  const linkOf = (s: ShareLinkOut) => `${origin}/share/${s.token}`;

  async function create() {
    setPending(true);
    setError(null);
    const sent = await sendJson("POST", `/me/vehicles/${vehicleId}/shares`, { duration });
    setPending(false);
    if (sent.ok) router.refresh();
    else setError(sent.message);
  }

  async function end(id: number) {
    setPending(true);
    setError(null);
    const sent = await sendJson("DELETE", `/me/vehicles/${vehicleId}/shares/${id}`);
    setPending(false);
    if (sent.ok) router.refresh();
    else setError(sent.message);
  }

  async function copy(s: ShareLinkOut) {
    try {
      await navigator.clipboard.writeText(linkOf(s));
      setCopied(s.id);
    } catch {
      setError("The browser did not let the page copy: select the link and copy it yourself.");
    }
  }

  return (
    <div className="mt-3 flex flex-col gap-3">
      <p className="text-sm text-slate-700">
        Anyone with the link sees this vehicle&apos;s label and live position, without signing in, until the link ends.
      </p>
      <div className="flex flex-wrap items-end gap-2">
        <label className="flex flex-col gap-1 text-sm font-medium">
          Duration
          <select
            name="duration"
            value={duration}
            onChange={(e) => setDuration(e.target.value as typeof duration)}
            className="min-h-11 rounded-lg border border-slate-300 bg-white px-3"
          >
            {DURATIONS.map(([value, text]) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </select>
        </label>
        <Button type="button" disabled={pending} onClick={create}>
          Create link
        </Button>
      </div>
      <FormMessage error={error} />
      {shares.length === 0 ? (
        <p className="text-sm text-slate-600">No shared link is active.</p>
      ) : (
        <ul className="divide-y divide-slate-200" aria-label="Shared links">
          {shares.map((s) => (
            <li key={s.id} className="flex flex-col gap-2 py-3" data-share-id={s.id}>
              <input
                readOnly
                aria-label="Shared link"
                value={linkOf(s)}
                onFocus={(e) => e.target.select()}
                className="min-h-11 w-full rounded-lg border border-slate-300 bg-slate-50 px-3 font-mono text-xs"
              />
              <p className="text-sm text-slate-700" data-field="Share views">
                Ends <time dateTime={s.endsAt}>{formatWhen(s.endsAt, timeZone)}</time> ·{" "}
                {s.views === 1 ? "1 view" : `${s.views} views`}
                {s.lastViewedAt ? <>, last {formatWhen(s.lastViewedAt, timeZone)}</> : null}
              </p>
              <div className="flex flex-wrap gap-2">
                <Button type="button" variant="secondary" onClick={() => copy(s)}>
                  {copied === s.id ? "Copied" : "Copy link"}
                </Button>
                <Button type="button" variant="danger" disabled={pending} onClick={() => end(s.id)}>
                  End link
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
