"use client";

import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { SeriesPoint, StatusFailures } from "@/server/surfaces/console/health";

// The delivery health page's charts (Recharts: docs/decisions/0088-recharts.md). Each chart is a figure with a
// caption; the same figures are in the tables beside them for screen readers and copying.

const DELIVERED = "#047857";
const FAILED = "#b91c1c";
const P50 = "#1d4ed8";
const P95 = "#7c3aed";
const tick = { fill: "#334155", fontSize: 12 };

function bucketLabel(iso: string, strideSeconds: number): string {
  const d = new Date(iso);
  const hm = `${String(d.getUTCHours()).padStart(2, "0")}:${String(d.getUTCMinutes()).padStart(2, "0")}`;
  return strideSeconds >= 21_600 ? `${d.getUTCDate()}/${d.getUTCMonth() + 1} ${hm}` : hm;
}

function Figure({ id, caption, children }: { id: string; caption: string; children: React.ReactNode }) {
  return (
    <figure className="min-w-0 flex-1 basis-72" data-testid={id} aria-label={caption}>
      <figcaption className="mb-1 text-sm font-semibold text-slate-800">{caption}</figcaption>
      <div className="h-52 w-full">{children}</div>
    </figure>
  );
}

export function HealthCharts({
  testId,
  series,
  failures,
  strideSeconds,
}: {
  testId: string;
  series: SeriesPoint[];
  failures: StatusFailures[];
  strideSeconds: number;
}) {
  const data = series.map((p) => ({ ...p, label: bucketLabel(p.at, strideSeconds) }));
  return (
    <div className="flex flex-wrap gap-4">
      <Figure id={`${testId}-attempts-chart`} caption="Attempts (UTC)">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="label" tick={tick} minTickGap={16} />
            <YAxis allowDecimals={false} tick={tick} />
            <Tooltip />
            <Legend />
            <Bar dataKey="delivered" name="Delivered" stackId="a" fill={DELIVERED} isAnimationActive={false} />
            <Bar dataKey="failed" name="Failed" stackId="a" fill={FAILED} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </Figure>
      <Figure id={`${testId}-latency-chart`} caption="Latency, ms (UTC)">
        <ResponsiveContainer width="100%" height="100%">
          {/* Dots as well as lines: a bucket between two empty ones has no line to draw. */}
          <LineChart data={data} margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="label" tick={tick} minTickGap={16} />
            <YAxis tick={tick} />
            <Tooltip />
            <Legend />
            <Line
              dataKey="p50Ms"
              name="p50"
              stroke={P50}
              dot={{ r: 3, fill: P50 }}
              connectNulls={false}
              isAnimationActive={false}
            />
            <Line
              dataKey="p95Ms"
              name="p95"
              stroke={P95}
              dot={{ r: 3, fill: P95 }}
              connectNulls={false}
              isAnimationActive={false}
            />
          </LineChart>
        </ResponsiveContainer>
      </Figure>
      <Figure id={`${testId}-failures-chart`} caption="Failures by status">
        {failures.length === 0 ? (
          <p className="flex h-full items-center justify-center rounded-lg bg-slate-50 text-sm text-slate-700">
            No failures in this window.
          </p>
        ) : (
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={failures} layout="vertical" margin={{ top: 4, right: 8, bottom: 0, left: 8 }}>
              <CartesianGrid strokeDasharray="3 3" horizontal={false} />
              <XAxis type="number" allowDecimals={false} tick={tick} />
              <YAxis type="category" dataKey="status" tick={tick} width={72} />
              <Tooltip />
              <Bar dataKey="failures" name="Failures" fill={FAILED} isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        )}
      </Figure>
    </div>
  );
}
