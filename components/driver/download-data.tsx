"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";

// "Download my data": the ZIP is fetched as a stream, so the page can show what is arriving (bytes
// so far, against the row totals the answer names first); when it is complete the browser saves
// it. The plain link beside it saves straight to disk, without the progress.

type Progress = { bytes: number; totals: Record<string, number> | null };

const count = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

export function DownloadData() {
  const [progress, setProgress] = useState<Progress | null>(null);
  const [state, setState] = useState<"idle" | "running" | "done" | "failed" | "busy">("idle");

  async function start() {
    setState("running");
    setProgress({ bytes: 0, totals: null });
    try {
      const answer = await fetch("/me/export", { cache: "no-store" });
      // One export at a time per account: another (another tab, the direct link) is still running.
      if (answer.status === 429) {
        setProgress(null);
        return setState("busy");
      }
      if (!answer.ok || !answer.body) throw new Error(String(answer.status));
      const totals = Object.fromEntries(
        ["Data-Points", "Trips", "Notifications", "Vehicles"].map((h) => [
          h.toLowerCase(),
          Number(answer.headers.get(`X-Export-${h}`) ?? 0),
        ]),
      );
      const name = /filename="([^"]+)"/.exec(answer.headers.get("Content-Disposition") ?? "")?.[1] ?? "wayline.zip";
      const reader = answer.body.getReader();
      const parts: Uint8Array<ArrayBuffer>[] = [];
      let bytes = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parts.push(value as Uint8Array<ArrayBuffer>);
        bytes += value.length;
        setProgress({ bytes, totals });
      }
      const url = URL.createObjectURL(new Blob(parts, { type: "application/zip" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = name;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      setState("done");
    } catch {
      setState("failed");
    }
  }

  const totals = progress?.totals;
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-3">
        <Button type="button" onClick={() => void start()} disabled={state === "running"}>
          {state === "running" ? "Preparing your data…" : "Download my data"}
        </Button>
        <a
          href="/me/export"
          download
          className="inline-block min-h-11 content-center text-sm font-semibold text-blue-700 underline-offset-2 hover:underline"
        >
          or save it directly
        </a>
      </div>
      {progress ? (
        <p role="status" aria-live="polite" className="text-sm text-slate-700" data-testid="export-progress">
          {totals
            ? `${count(totals["data-points"]!, "data point", "data points")}, ` +
              `${count(totals.trips!, "trip", "trips")}, ` +
              `${count(totals.notifications!, "notification", "notifications")}, ` +
              `${count(totals.vehicles!, "vehicle", "vehicles")}: `
            : "Starting… "}
          {mb(progress.bytes)} received
          {state === "done"
            ? " — done, saved as a ZIP."
            : state === "failed"
              ? " — the download failed; try again."
              : "…"}
        </p>
      ) : null}
      {state === "busy" ? (
        <p role="status" className="text-sm text-slate-700" data-testid="export-busy">
          An export of your data is already running (in another tab, or saved directly); try again when it has finished.
        </p>
      ) : null}
    </div>
  );
}
