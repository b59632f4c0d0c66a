import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SiteHeader } from "@/components/site/site-header";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { csrfToken } from "@/server/auth/csrf";
import { getDriverSession } from "@/server/auth/session";
import { idParam } from "@/common/http/fields";
import { appName, listConnectedApps } from "@/server/oauth/connected-apps";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Connected apps" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const day = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });

// /connected-apps — the apps that can reach the driver's account, each with a Revoke button.
export default async function ConnectedAppsPage({ searchParams }: Props) {
  const session = await getDriverSession();
  if (!session) redirect("/login?callbackUrl=%2Fconnected-apps");
  const query = await searchParams;
  const apps = await listConnectedApps(session);
  const revokedId = idParam.safeParse(query.revoked);
  const revokedName = revokedId.success && !apps.some((a) => a.appId === revokedId.data) ? await appName(revokedId.data) : null;
  const token = csrfToken(session, "revoke");

  return (
    <>
      <SiteHeader session={session} current="connected-apps" />
      <main className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-6">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Connected apps</h1>
          <p className="mt-1 text-slate-700">
            These apps can reach your {session.environment} account: its details, vehicles and their data. Revoking an app ends its access at once.
          </p>
        </div>
        {revokedName ? (
          <p role="status" className="rounded-lg bg-emerald-50 px-4 py-3 text-sm text-emerald-900">
            {revokedName} no longer has access to your account.
          </p>
        ) : null}
        {apps.length === 0 ? (
          <Card>
            <p className="text-slate-700">No app has access to your account.</p>
          </Card>
        ) : (
          <ul className="flex flex-col gap-3" aria-label="Apps with access">
            {apps.map((app) => (
              <li key={app.appId} className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:flex-row sm:items-center sm:justify-between">
                <div>
                  <h2 className="font-semibold text-slate-900">{app.name}</h2>
                  <p className="text-sm text-slate-600">
                    {[
                      app.ownerName ? `By ${app.ownerName}` : null,
                      `${app.how === "created" ? "Created your account" : "Allowed by you"} on ${day.format(app.since)}`,
                      app.lastTokenAt ? `last connected ${day.format(app.lastTokenAt)}` : null,
                    ]
                      .filter(Boolean)
                      .join(" · ")}
                  </p>
                </div>
                <form method="post" action="/connected-apps/revoke">
                  <input type="hidden" name="app_id" value={app.appId} />
                  <input type="hidden" name="csrf_token" value={token} />
                  <Button type="submit" variant="danger" aria-label={`Revoke ${app.name}`}>
                    Revoke
                  </Button>
                </form>
              </li>
            ))}
          </ul>
        )}
      </main>
    </>
  );
}
