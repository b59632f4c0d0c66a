import type { ReactNode } from "react";
import type { DeviceEndpoints } from "@/server/devices/connect-info";
import type { PortKind } from "@/server/devices/device-ports";
import type { DeviceStatus } from "@/server/devices/device-status";
import { PROTOCOL_NAMES, refusalWords } from "./refusal-words";

// "Connect a device" (docs/devices.md#seeing-the-device): what to type into a tracker or phone app
// (the server, the port of its protocol, the identifier) and what the gateway has seen of it. The
// driver's vehicle page and the console's sandbox vehicles show the same panel; each passes how it
// writes a time (the driver's account zone, the partner's browser) and what to do without an
// identifier (the driver's edit form, the partner's API call).

const PORTS: { kind: PortKind; name: string; transport: string; use: string }[] = [
  { kind: "osmand", name: "OsmAnd", transport: "HTTP", use: "Traccar Client and other phone apps" },
  { kind: "teltonika", name: "Teltonika", transport: "TCP and UDP", use: "Teltonika trackers (FMB, FMC, FMM, …)" },
  { kind: "gt06", name: "GT06 / Concox", transport: "TCP", use: "GT06, Concox and compatible trackers" },
  { kind: "shared", name: "Any of the three", transport: "TCP", use: "a tracker with one port for every protocol" },
];

function connection(status: DeviceStatus): string {
  if (status.deviceId === null) return "No device named";
  if (status.protocol === null) return "Not heard from yet";
  if (status.connected) return "Connected now";
  if (status.protocol === "osmand") return "Reports over HTTP (no connection stays open)";
  return "Not connected";
}

export function ConnectDevice({
  status,
  endpoints,
  environment,
  time,
  noIdentifier,
}: {
  status: DeviceStatus;
  endpoints: DeviceEndpoints;
  environment: "production" | "sandbox";
  /** A moment as this surface writes it. */
  time: (at: Date) => ReactNode;
  /** How to give the vehicle an identifier, where it has none. */
  noIdentifier: ReactNode;
}) {
  const { deviceId, protocol, lastRefusal } = status;
  const rows: [string, string, ReactNode][] = [
    [
      "Server address",
      "server",
      <code key="host" className="font-mono">
        {endpoints.host}
      </code>,
    ],
    [
      "Identifier",
      "identifier",
      deviceId ? (
        <code key="id" className="font-mono">
          {deviceId}
        </code>
      ) : (
        <span key="none">None yet. {noIdentifier}</span>
      ),
    ],
    ["Status", "status", connection(status)],
    ["Protocol", "protocol", protocol ? PROTOCOL_NAMES[protocol] : "—"],
    ["Last heard from", "last-contact", status.lastContactAt ? time(status.lastContactAt) : "Never"],
    ["Newest record", "last-record", status.lastRecordAt ? time(status.lastRecordAt) : "None"],
    ["Records today (UTC)", "records-today", status.recordsToday.toLocaleString("en-US")],
    [
      "Last refusal",
      "last-refusal",
      lastRefusal && deviceId ? refusalWords(lastRefusal, { deviceId, protocol }, time(lastRefusal.at)) : "None",
    ],
  ];

  return (
    <div className="flex flex-col gap-4 text-sm" data-testid="connect-device">
      <p className="text-slate-700">
        Set the tracker or phone app to send to this server, on the port of its protocol, with the identifier below (a
        tracker&apos;s IMEI, or the identifier set in the app). Records arrive as the vehicle&apos;s data.
      </p>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2">
        {rows.map(([term, field, value]) => (
          <div key={field} className="contents">
            <dt className="font-medium text-slate-600">{term}</dt>
            <dd className="break-words text-slate-900" data-field={field}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      <div className="overflow-x-auto" role="region" aria-label="Ports" tabIndex={0}>
        <table className="w-full min-w-[28rem] text-left">
          <caption className="mb-1 text-left font-medium text-slate-600">
            Ports{environment === "sandbox" ? " of the sandbox" : ""}
          </caption>
          <thead>
            <tr className="border-b border-slate-200 text-slate-600">
              <th scope="col" className="py-1 pr-3 font-medium">
                Protocol
              </th>
              <th scope="col" className="py-1 pr-3 font-medium">
                Port
              </th>
              <th scope="col" className="py-1 font-medium">
                For
              </th>
            </tr>
          </thead>
          <tbody>
            {PORTS.map((p) => {
              const port = endpoints.ports[p.kind];
              const mine = p.kind === protocol;
              return (
                <tr
                  key={p.kind}
                  data-port={p.kind}
                  className={`border-b border-slate-100 ${mine ? "bg-emerald-50" : ""}`}
                  aria-current={mine ? "true" : undefined}
                >
                  <td className="py-1.5 pr-3">
                    {p.name} <span className="text-slate-600">({p.transport})</span>
                    {mine ? <span className="ml-1 font-semibold text-emerald-800">· this device</span> : null}
                  </td>
                  <td className="py-1.5 pr-3 font-mono">{port}</td>
                  <td className="py-1.5 text-slate-700">
                    {p.use}
                    {p.kind === "osmand" ? (
                      <>
                        : server URL{" "}
                        <code className="font-mono">
                          http://{endpoints.host}:{port}
                        </code>
                      </>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
