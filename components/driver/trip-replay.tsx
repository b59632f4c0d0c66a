"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { LazyTrackMap } from "@/components/map/lazy";
import type { Tiles } from "@/components/map/tiles";
import { pointAt, type Track } from "@/common/driver/trip-stats";
import { formatMph, formatWhen } from "./format";

const SPEEDS = [1, 2, 5, 10, 20] as const;

// Where the vehicle was at `time`: between two points, on the straight line at the share of time.
function positionAt(track: Track, time: number): [number, number] | null {
  const n = track.t.length;
  if (n === 0) return null;
  const i = pointAt(track.t, time);
  if (i >= n - 1) return [track.lat[n - 1]!, track.lon[n - 1]!];
  const span = track.t[i + 1]! - track.t[i]!;
  const f = span > 0 ? Math.min(1, Math.max(0, (time - track.t[i]!) / span)) : 0;
  return [
    track.lat[i]! + (track.lat[i + 1]! - track.lat[i]!) * f,
    track.lon[i]! + (track.lon[i + 1]! - track.lon[i]!) * f,
  ];
}

// The replay: play, pause, a scrubber, speeds 1×–20× and follow mode over the trip's track.
export function TripReplay({ track, tiles, timeZone }: { track: Track; tiles: Tiles; timeZone: string }) {
  const first = track.t[0] ?? 0;
  const last = track.t.at(-1) ?? first;
  const [time, setTime] = useState(first);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<number>(10);
  const [follow, setFollow] = useState(true);
  const frame = useRef<number | null>(null);

  useEffect(() => {
    if (!playing) return;
    let previous = performance.now();
    const tick = (now: number) => {
      const elapsed = now - previous;
      previous = now;
      setTime((current) => {
        const next = Math.min(last, current + elapsed * speed);
        if (next >= last) setPlaying(false);
        return next;
      });
      frame.current = requestAnimationFrame(tick);
    };
    frame.current = requestAnimationFrame(tick);
    return () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
    };
  }, [playing, speed, last]);

  const current = useMemo(() => positionAt(track, time), [track, time]);
  const index = pointAt(track.t, time);
  const reported = track.speed[index] ?? -1;
  const iso = new Date(time).toISOString();
  const canPlay = track.t.length > 1;

  return (
    <div className="flex flex-col gap-3">
      <section
        aria-label="Trip map"
        className="relative h-[55vh] min-h-72 overflow-hidden rounded-xl border border-slate-200 bg-slate-100 shadow-sm"
      >
        <LazyTrackMap track={track} tiles={tiles} current={canPlay ? current : null} follow={follow && playing} />
      </section>
      <div
        className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
        role="group"
        aria-label="Replay controls"
      >
        <div className="flex flex-wrap items-center gap-3">
          <button
            type="button"
            disabled={!canPlay}
            onClick={() => {
              if (!playing && time >= last) setTime(first);
              setPlaying(!playing);
            }}
            className="min-h-11 min-w-24 rounded-lg bg-blue-700 px-4 text-sm font-semibold text-white hover:bg-blue-800 disabled:bg-blue-300"
          >
            {playing ? "Pause" : "Play"}
          </button>
          <label className="flex items-center gap-2 text-sm font-medium">
            Speed
            <select
              value={speed}
              onChange={(e) => setSpeed(Number(e.target.value))}
              className="min-h-11 rounded-lg border border-slate-300 bg-white px-2"
            >
              {SPEEDS.map((s) => (
                <option key={s} value={s}>
                  {s}×
                </option>
              ))}
            </select>
          </label>
          <label className="flex min-h-11 items-center gap-2 text-sm font-medium">
            <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} className="h-5 w-5" />
            Follow the vehicle
          </label>
        </div>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Position in the trip
          <input
            type="range"
            min={first}
            max={last}
            step={1000}
            value={time}
            disabled={!canPlay}
            onChange={(e) => setTime(Number(e.target.value))}
            aria-valuetext={formatWhen(iso, timeZone, "time")}
            className="h-11 w-full accent-blue-700"
          />
        </label>
        <p className="text-sm text-slate-700" aria-live="off" data-testid="replay-clock">
          <time dateTime={iso}>{formatWhen(iso, timeZone, "time")}</time> · point {index + 1} of {track.t.length}
          {reported >= 0 ? ` · ${formatMph(reported)}` : ""}
        </p>
      </div>
    </div>
  );
}
