import type { Metadata } from "next";
import Link from "next/link";
import { formatWhen, zoneOf } from "@/components/driver/format";
import { SiteHeader } from "@/components/site/site-header";
import { Card } from "@/components/ui/card";
import type { ChannelOutcome } from "@/server/alerts/service";
import { getDriverAccount } from "@/server/surfaces/driver/account";
import { listDriverAlerts } from "@/server/surfaces/driver/alerts";
import { requireDriver } from "../_lib/driver-page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Alerts" };

const CHANNEL_NAMES = { email: "E-mail", browser: "Browser" } as const;

function outcomeText(c: ChannelOutcome): string {
  if (c.outcome === "delivered") return "delivered";
  if (c.outcome === "sending") return c.reason ? `sending again (last try: ${c.reason})` : "sending";
  return `not sent: ${c.reason ?? "unknown"}`;
}

// /alerts — every alert of the driver's: when, which vehicle, what, and each channel's outcome.
export default async function AlertsPage() {
  const session = await requireDriver("/alerts");
  const [alerts, account] = await Promise.all([listDriverAlerts(session), getDriverAccount(session)]);
  const zone = zoneOf(account.timeZone);
  return (
    <>
      <SiteHeader session={session} current="alerts" />
      <main className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-6">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Alerts</h1>
          <p className="mt-1 text-slate-700">
            Your latest 50 alerts, newest first, and what became of each on its channels.{" "}
            <Link className="text-blue-700 underline" href="/account/alerts">
              Alert settings
            </Link>
          </p>
        </div>
        <Card>
          {alerts.length === 0 ? (
            <p className="text-slate-700">No alerts yet.</p>
          ) : (
            <div className="overflow-x-auto">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Your alerts</caption>
                <thead>
                  <tr className="border-b border-slate-200">
                    <th scope="col" className="py-2 pr-4">
                      Time
                    </th>
                    <th scope="col" className="py-2 pr-4">
                      Vehicle
                    </th>
                    <th scope="col" className="py-2 pr-4">
                      What
                    </th>
                    <th scope="col" className="py-2">
                      Channels
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {alerts.map((a) => (
                    <tr key={a.id} className="border-b border-slate-100 align-top" data-testid="alert-row">
                      <td className="py-2 pr-4 whitespace-nowrap">{formatWhen(a.at.toISOString(), zone)}</td>
                      <td className="py-2 pr-4">{a.vehicle ? a.vehicle.name : "—"}</td>
                      <td className="py-2 pr-4">
                        {a.what}
                        {a.test ? (
                          <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-semibold">test</span>
                        ) : null}
                      </td>
                      <td className="py-2">
                        {a.channels.length === 0 ? (
                          "none chosen"
                        ) : (
                          <ul>
                            {a.channels.map((c) => (
                              <li key={c.channel}>
                                {CHANNEL_NAMES[c.channel]}: {outcomeText(c)}
                              </li>
                            ))}
                          </ul>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Card>
      </main>
    </>
  );
}
