import type { Health, HealthWindow } from "@/server/surfaces/console/health";
import { PERCENTILE_ERROR } from "@/common/delivery/latency-histogram";
import { HealthCharts } from "./health-charts";

// One block of the delivery health page: the three windows' figures, the backlog, and the chosen
// window's charts. Used for the app as a whole and for each delivery.

const WINDOW_LABELS: Record<HealthWindow, string> = { "1h": "Last hour", "24h": "Last 24 hours", "7d": "Last 7 days" };

const percent = (rate: number | null) => (rate === null ? "–" : `${(Math.floor(rate * 1000) / 10).toFixed(1)} %`);
const ms = (v: number | null) => (v === null ? "–" : `${v} ms`);

/** "45 s", "12 min", "3 h 5 min", "2 d 4 h": how long the oldest pending notification has waited. */
function age(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const m = Math.floor(seconds / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h} h ${m % 60} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

export function HealthFigures({
  testId,
  health,
  window,
  strideSeconds,
}: {
  testId: string;
  health: Health;
  window: HealthWindow;
  strideSeconds: number;
}) {
  const { backlog } = health;
  return (
    <div className="flex flex-col gap-4" data-testid={testId}>
      {/* Scrolls sideways on a narrow phone; focusable so a keyboard can scroll it too. */}
      <div className="overflow-x-auto" tabIndex={0} role="group" aria-label="Figures per window">
        <table className="w-full min-w-[26rem] text-left text-sm" data-testid={`${testId}-totals`}>
          <caption className="sr-only">Attempts, success rate and latency per window</caption>
          <thead className="text-slate-700">
            <tr>
              <th scope="col" className="py-1 pr-3 font-semibold">
                Window
              </th>
              <th scope="col" className="py-1 pr-3 font-semibold">
                Attempts
              </th>
              <th scope="col" className="py-1 pr-3 font-semibold">
                Success rate
              </th>
              <th
                scope="col"
                className="py-1 pr-3 font-semibold"
                title={`Median latency, from a latency histogram: ${PERCENTILE_ERROR} of the exact value`}
              >
                p50 latency
              </th>
              <th
                scope="col"
                className="py-1 pr-3 font-semibold"
                title={`95th percentile latency, from a latency histogram: ${PERCENTILE_ERROR} of the exact value`}
              >
                p95 latency
              </th>
            </tr>
          </thead>
          <tbody>
            {health.totals.map((t) => (
              <tr
                key={t.window}
                data-window={t.window}
                className={`border-t border-slate-200 ${t.window === window ? "bg-blue-50" : ""}`}
              >
                <th scope="row" className="py-1 pr-3 font-medium">
                  {WINDOW_LABELS[t.window]}
                </th>
                <td className="py-1 pr-3 tabular-nums" data-cell="attempts">
                  {t.attempts.toLocaleString("en-US")}
                </td>
                <td
                  className={`py-1 pr-3 tabular-nums ${t.successRate !== null && t.successRate < 0.95 ? "font-semibold text-red-800" : ""}`}
                  data-cell="success"
                >
                  {percent(t.successRate)}
                </td>
                <td className="py-1 pr-3 tabular-nums" data-cell="p50">
                  {ms(t.p50Ms)}
                </td>
                <td className="py-1 pr-3 tabular-nums" data-cell="p95">
                  {ms(t.p95Ms)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="mt-1 text-xs text-slate-700" data-testid={`${testId}-percentile-note`}>
          Counts are exact; p50 and p95 are read from a latency histogram, {PERCENTILE_ERROR} of the exact values.
        </p>
      </div>
      <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm" data-testid={`${testId}-backlog`}>
        <div className="flex gap-2">
          <dt className="text-slate-700">Pending</dt>
          <dd className="font-semibold tabular-nums" data-cell="pending">
            {backlog.pending.toLocaleString("en-US")}
          </dd>
        </div>
        <div className="flex gap-2">
          <dt className="text-slate-700">Oldest pending</dt>
          <dd className="font-semibold" data-cell="oldest">
            {backlog.oldestPendingAgeSeconds === null ? (
              "none waiting"
            ) : (
              <span title={backlog.oldestPendingAt ?? undefined}>{age(backlog.oldestPendingAgeSeconds)} ago</span>
            )}
          </dd>
        </div>
        <div className="flex gap-2">
          <dt className="text-slate-700">Retrying</dt>
          <dd className="font-semibold tabular-nums" data-cell="retrying">
            {backlog.retrying.toLocaleString("en-US")}
          </dd>
        </div>
      </dl>
      <HealthCharts testId={testId} series={health.series} failures={health.failures} strideSeconds={strideSeconds} />
    </div>
  );
}
