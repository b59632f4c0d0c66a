import type { Metadata } from "next";
import { AccessChart } from "@/components/access/access-chart";
import { Section } from "@/components/console/states";
import { ACCESS_CATEGORIES, ACCESS_CATEGORY_LABELS } from "@/common/access/categories";
import { ACCESS_DAYS, accessOfApp } from "@/server/access-log/views";
import { consoleAppPage, pageEnvironment, pageId } from "@/server/surfaces/console/pages";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Data access" };

type Props = {
  params: Promise<{ appId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

// /console/apps/{id}/access?env= — the app's own entries in the drivers' access logs: how often its
// answers and notifications carried drivers' data, per category and day (what drivers see of it).
export default async function AccessPage({ params, searchParams }: Props) {
  const appId = pageId((await params).appId);
  const environment = pageEnvironment((await searchParams).env);
  // The partner's app, or the sign-in or 404 page: accessOfApp reads by app id alone.
  await consoleAppPage(appId, `/console/apps/${appId}/access?env=${environment}`);
  const access = await accessOfApp(appId, environment);
  const days = access.days.filter((d) => ACCESS_CATEGORIES.some((c) => d[c] > 0)).reverse();

  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">Data access</h1>
      <p className="text-sm text-slate-700">
        Each answer of the API to this app and each notification delivered to it counts once per driver account whose
        data it carried, in each category it carried. Drivers see these counts for their own account on the driver
        site&apos;s &ldquo;Data access&rdquo; page. Last {ACCESS_DAYS} days, by UTC day.
      </p>
      <Section title="Totals" id="access-totals">
        <dl className="grid grid-cols-2 gap-4 text-sm sm:grid-cols-4" data-testid="access-totals">
          {ACCESS_CATEGORIES.map((c) => (
            <div key={c} data-category={c}>
              <dt className="text-slate-600">{ACCESS_CATEGORY_LABELS[c]}</dt>
              <dd className="text-xl font-semibold tabular-nums">{access.totals[c].toLocaleString("en-US")}</dd>
            </div>
          ))}
        </dl>
      </Section>
      <Section title="By day" id="access-days">
        <AccessChart days={access.days} caption="Drivers' data received, per day" testId="access-chart" />
        <table className="mt-4 w-full text-left text-sm" data-testid="access-days">
          <thead className="text-slate-600">
            <tr>
              <th className="py-1 pr-4 font-medium">Day</th>
              {ACCESS_CATEGORIES.map((c) => (
                <th key={c} className="py-1 pr-4 text-right font-medium">
                  {ACCESS_CATEGORY_LABELS[c]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.length === 0 ? (
              <tr>
                <td colSpan={5} className="py-2 text-slate-700">
                  No access in the last {ACCESS_DAYS} days.
                </td>
              </tr>
            ) : (
              days.map((d) => (
                <tr key={d.day} className="border-t border-slate-100" data-day={d.day}>
                  <td className="py-1 pr-4">{d.day}</td>
                  {ACCESS_CATEGORIES.map((c) => (
                    <td key={c} className="py-1 pr-4 text-right tabular-nums" data-category={c}>
                      {d[c]}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </Section>
    </>
  );
}
