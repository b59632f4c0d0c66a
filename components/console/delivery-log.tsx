import type { DeliveryLog } from "@/server/console/deliveries";
import { formatDateTime } from "@/server/http/datetime";
import type { DeliveryState } from "@/server/console/notifications";

const STATE_STYLE: Record<DeliveryState, string> = {
  PENDING: "bg-amber-100 text-amber-950",
  DELIVERED: "bg-emerald-100 text-emerald-900",
  FAILED: "bg-red-100 text-red-900",
};

export function DeliveryStateBadge({ state }: { state: DeliveryState }) {
  return <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATE_STYLE[state]}`}>{state.toLowerCase()}</span>;
}

import { LocalTime } from "./local-time";

const time = (d: Date) => <LocalTime iso={d.toISOString()} wire={formatDateTime(d)} />;

// Every delivery of one notification and every attempt of each, oldest first: what the partner
// needs to see why a webhook failed without asking support (the exact string signed included,
// so a receiver's signature check can be compared byte for byte).
export function DeliveryLogView({ deliveries }: { deliveries: DeliveryLog }) {
  return (
    <ol className="flex flex-col gap-4" aria-label="Deliveries">
      {deliveries.map((d) => (
        <li key={d.id} className="rounded-lg border border-slate-200 p-4" data-testid={`delivery-${d.id}`}>
          <p className="flex flex-wrap items-center gap-2 text-sm">
            <span className="font-mono">{d.type}</span>
            <span className="break-all">{d.type === "EMAIL" ? d.recipient : d.postUrl}</span>
            <DeliveryStateBadge state={d.status} />
            {d.active ? null : <span className="text-red-900">delivery deactivated: {d.deactivationReason}</span>}
            {d.status === "PENDING" && d.nextAttemptAt ? <span className="text-slate-700">next attempt {time(d.nextAttemptAt)} (after {d.failures} failed)</span> : null}
          </p>
          {d.attempts.length === 0 ? (
            <p className="mt-2 text-sm text-slate-700">No attempt yet.</p>
          ) : (
            <div className="mt-3 overflow-x-auto" tabIndex={0} role="region" aria-label={`Attempts of delivery ${d.id}`}>
              <table className="w-full min-w-[44rem] text-left text-sm">
                <caption className="sr-only">Attempts</caption>
                <thead>
                  <tr className="border-b border-slate-200 text-slate-700">
                    <th scope="col" className="px-2 py-1">Time</th>
                    <th scope="col" className="px-2 py-1">Target</th>
                    <th scope="col" className="px-2 py-1">Outcome</th>
                    <th scope="col" className="px-2 py-1">HTTP</th>
                    <th scope="col" className="px-2 py-1">Latency</th>
                    <th scope="col" className="px-2 py-1">Error and response</th>
                  </tr>
                </thead>
                <tbody>
                  {d.attempts.map((a) => (
                    <tr key={a.id} className="border-b border-slate-100 align-top" data-testid={`attempt-${a.id}`}>
                      <td className="px-2 py-1">{time(a.attemptedAt)}</td>
                      <td className="px-2 py-1 break-all">{a.target}</td>
                      <td className="px-2 py-1 font-mono">{a.outcome}</td>
                      <td className="px-2 py-1 font-mono">{a.httpStatus ?? "—"}</td>
                      <td className="px-2 py-1 font-mono whitespace-nowrap">{a.latencyMs} ms</td>
                      <td className="px-2 py-1">
                        {a.error ? <p className="text-red-900">{a.error}</p> : null}
                        {a.responseExcerpt ? <pre className="mt-1 max-h-40 overflow-auto rounded bg-slate-100 p-2 text-xs whitespace-pre-wrap">{a.responseExcerpt}</pre> : null}
                        {a.requestHeaders || a.signedContent ? (
                          <details className="mt-1">
                            <summary className="min-h-11 cursor-pointer content-center text-blue-700 underline">Request headers{a.signedContent ? " and signed string" : ""}</summary>
                            {/* The headers as sent, one per line as on the wire; the body is the one shown above. */}
                            <pre className="mt-1 max-h-60 overflow-auto rounded bg-slate-100 p-2 text-xs whitespace-pre-wrap break-all" aria-label={`Request headers of attempt ${a.id}`}>
                              {a.requestHeaders
                                ? Object.entries(a.requestHeaders)
                                    .map(([name, value]) => `${name}: ${value}`)
                                    .join("\n")
                                : `webhook-signature: ${a.signature}`}
                            </pre>
                            {a.signedContent ? (
                              <>
                                <p className="mt-1 text-xs text-slate-700">Signed string (webhook-id.webhook-timestamp.body, byte for byte):</p>
                                <pre className="mt-1 max-h-60 overflow-auto rounded bg-slate-100 p-2 text-xs whitespace-pre-wrap break-all">{a.signedContent}</pre>
                              </>
                            ) : null}
                          </details>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </li>
      ))}
    </ol>
  );
}
