import type { DeliveryLog } from "@/server/surfaces/console/deliveries";
import { formatDateTime } from "@/common/http/datetime";
import type { DeliveryState } from "@/server/surfaces/console/notifications";

const STATE_STYLE: Record<DeliveryState, string> = {
  PENDING: "bg-amber-100 text-amber-950",
  DELIVERED: "bg-emerald-100 text-emerald-900",
  FAILED: "bg-red-100 text-red-900",
};

export function DeliveryStateBadge({ state }: { state: DeliveryState }) {
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATE_STYLE[state]}`}>
      {state.toLowerCase()}
    </span>
  );
}

import { DataTable } from "./data-table";
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
            {d.status === "PENDING" && d.nextAttemptAt ? (
              <span className="text-slate-700">
                next attempt {time(d.nextAttemptAt)} (after {d.failures} failed)
              </span>
            ) : null}
          </p>
          {d.attempts.length === 0 ? (
            <p className="mt-2 text-sm text-slate-700">No attempt yet.</p>
          ) : (
            <DataTable
              className="mt-3"
              label={`Attempts of delivery ${d.id}`}
              caption="Attempts"
              minWidth="44rem"
              rows={d.attempts}
              rowKey={(a) => a.id}
              rowAttributes={(a) => ({ "data-testid": `attempt-${a.id}` })}
              columns={[
                { key: "time", header: "Time", cell: (a) => time(a.attemptedAt) },
                { key: "target", header: "Target", className: "break-all", cell: (a) => a.target },
                { key: "outcome", header: "Outcome", className: "font-mono", cell: (a) => a.outcome },
                { key: "http", header: "HTTP", className: "font-mono", cell: (a) => a.httpStatus ?? "—" },
                {
                  key: "latency",
                  header: "Latency",
                  className: "font-mono whitespace-nowrap",
                  cell: (a) => `${a.latencyMs} ms`,
                },
                { key: "answer", header: "Error and response", cell: (a) => <AttemptDetail attempt={a} /> },
              ]}
            />
          )}
        </li>
      ))}
    </ol>
  );
}

type Attempt = DeliveryLog[number]["attempts"][number];

// An attempt's error, the receiver's answer, and (folded) the request headers and the signed string.
function AttemptDetail({ attempt: a }: { attempt: Attempt }) {
  return (
    <>
      {a.error ? <p className="text-red-900">{a.error}</p> : null}
      {a.responseExcerpt ? (
        <pre className="mt-1 max-h-40 overflow-auto rounded bg-slate-100 p-2 text-xs whitespace-pre-wrap">
          {a.responseExcerpt}
        </pre>
      ) : null}
      {a.requestHeaders || a.signedContent ? (
        <details className="mt-1">
          <summary className="min-h-11 cursor-pointer content-center text-blue-700 underline">
            Request headers{a.signedContent ? " and signed string" : ""}
          </summary>
          {/* The headers as sent, one per line as on the wire; the body is the one shown above. */}
          <pre className="mt-1 max-h-60 overflow-auto rounded bg-slate-100 p-2 text-xs whitespace-pre-wrap break-all">
            {a.requestHeaders
              ? Object.entries(a.requestHeaders)
                  .map(([name, value]) => `${name}: ${value}`)
                  .join("\n")
              : `webhook-signature: ${a.signature}`}
          </pre>
          {a.signedContent ? (
            <>
              <p className="mt-1 text-xs text-slate-700">
                Signed string (webhook-id.webhook-timestamp.body, byte for byte):
              </p>
              <pre className="mt-1 max-h-60 overflow-auto rounded bg-slate-100 p-2 text-xs whitespace-pre-wrap break-all">
                {a.signedContent}
              </pre>
            </>
          ) : null}
        </details>
      ) : null}
    </>
  );
}
