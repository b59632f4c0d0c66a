import type { Metadata } from "next";
import { AccessChart } from "@/components/access/access-chart";
import { formatWhen, zoneOf } from "@/components/driver/format";
import { RelativeTime } from "@/components/driver/relative-time";
import { SiteHeader } from "@/components/site/site-header";
import { Card } from "@/components/ui/card";
import { ACCESS_CATEGORY_HELP, ACCESS_CATEGORY_LABELS } from "@/common/access/categories";
import { ACCESS_DAYS, accessOfAccount } from "@/server/access-log/views";
import { getDriverAccount } from "@/server/surfaces/driver/account";
import { requireDriver } from "../_lib/driver-page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Data access" };

// /data-access — which app received which of the driver's data over the last 90 days: per app and
// category the count and the last access, a chart by day, each opening of a shared location's link,
// and the same as CSV.
export default async function DataAccessPage() {
  const session = await requireDriver("/data-access");
  const [access, account] = await Promise.all([accessOfAccount(session.accountId), getDriverAccount(session)]);
  const zone = zoneOf(account.timeZone);
  const any = access.apps.length > 0;

  return (
    <>
      <SiteHeader session={session} current="data-access" />
      <main className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-6">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Data access</h1>
          <p className="mt-1 text-slate-700">
            How often each app received your data in the last {ACCESS_DAYS} days: every answer the API gave it and every
            notification sent to it counts once for each kind of data it carried. Counts are kept per hour and appear
            within a few seconds.
          </p>
          <dl className="mt-3 grid gap-x-4 gap-y-1 text-sm text-slate-700 sm:grid-cols-[auto_minmax(0,1fr)]">
            {Object.entries(ACCESS_CATEGORY_HELP).map(([category, help]) => (
              <div key={category} className="contents">
                <dt className="font-medium text-slate-900">
                  {ACCESS_CATEGORY_LABELS[category as keyof typeof ACCESS_CATEGORY_LABELS]}
                </dt>
                <dd>{help}</dd>
              </div>
            ))}
          </dl>
        </div>
        <Card>
          <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
            <h2 className="text-lg font-semibold">By day (UTC)</h2>
            <a
              href="/me/access-log"
              download
              className="inline-block min-h-11 content-center font-semibold text-blue-700 underline-offset-2 hover:underline"
            >
              Download as CSV
            </a>
          </div>
          <AccessChart days={access.days} caption="Data received by apps, per day" testId="access-chart" />
        </Card>
        <Card>
          <h2 className="text-lg font-semibold">Shared links</h2>
          <p className="mt-1 text-sm text-slate-700">
            Each time someone opened a link you made to share a vehicle&apos;s live location: they saw its position.
          </p>
          {access.shared.total === 0 ? (
            <p className="mt-3 text-slate-700">No shared link was opened in the last {ACCESS_DAYS} days.</p>
          ) : (
            <>
              <ul className="mt-3 divide-y divide-slate-100 text-sm" aria-label="Shared link views">
                {access.shared.lines.map((line, i) => (
                  <li
                    key={`${line.linkId}-${line.viewedAt}-${i}`}
                    data-share-id={line.linkId}
                    className="flex flex-wrap justify-between gap-2 py-1"
                  >
                    <span className="text-slate-900">
                      Shared link · <span data-field="vehicle">{line.vehicle}</span> · Location
                    </span>
                    <span className="text-slate-700">
                      <RelativeTime iso={line.viewedAt} timeZone={zone} />{" "}
                      <span className="text-slate-600">({formatWhen(line.viewedAt, zone)})</span>
                    </span>
                  </li>
                ))}
              </ul>
              {access.shared.total > access.shared.lines.length ? (
                <p className="mt-2 text-xs text-slate-600">
                  The {access.shared.lines.length} most recent of {access.shared.total} views; the CSV has every one.
                </p>
              ) : null}
            </>
          )}
        </Card>
        {!any ? (
          <Card>
            <p className="text-slate-700">No app received your data in the last {ACCESS_DAYS} days.</p>
          </Card>
        ) : (
          <ul className="flex flex-col gap-3" aria-label="Apps that received your data">
            {access.apps.map((app) => (
              <li
                key={app.appId}
                data-app-id={app.appId}
                className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
              >
                <h2 className="font-semibold text-slate-900">{app.name}</h2>
                <table className="mt-2 w-full text-left text-sm">
                  <thead className="text-slate-600">
                    <tr>
                      <th className="py-1 pr-4 font-medium">Data</th>
                      <th className="py-1 pr-4 text-right font-medium">Times</th>
                      <th className="py-1 font-medium">Last</th>
                    </tr>
                  </thead>
                  <tbody>
                    {app.categories.map((c) => (
                      <tr key={c.category} data-category={c.category} className="border-t border-slate-100">
                        <td className="py-1 pr-4 text-slate-900">{ACCESS_CATEGORY_LABELS[c.category]}</td>
                        <td className="py-1 pr-4 text-right tabular-nums" data-field="count">
                          {c.count.toLocaleString("en-US")}
                        </td>
                        <td className="py-1 text-slate-700" data-field="last">
                          <RelativeTime iso={c.lastAt} timeZone={zone} />{" "}
                          <span className="text-slate-600">({formatWhen(c.lastAt, zone)})</span>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </li>
            ))}
          </ul>
        )}
      </main>
    </>
  );
}
