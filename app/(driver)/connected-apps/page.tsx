import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { formatWhen, zoneOf } from "@/components/driver/format";
import { RelativeTime } from "@/components/driver/relative-time";
import { appAbilities, capitalized, LOCATION_WORDS } from "@/components/oauth/abilities";
import { precisionsUpTo } from "@/common/oauth/grant-scope";
import { SiteHeader } from "@/components/site/site-header";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { csrfToken } from "@/server/surfaces/driver/csrf";
import { getDriverSession } from "@/server/surfaces/driver/session";
import { getDriverAccount } from "@/server/surfaces/driver/account";
import { idParam } from "@/common/http/fields";
import { appName, listConnectedApps } from "@/server/grants/connected-apps";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Connected apps" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** A moment as "3 min ago", with the date and time in the driver's zone beside it and the instant in dateTime. */
function When({ at, zone }: { at: Date; zone: string }) {
  const iso = at.toISOString();
  return (
    <>
      <RelativeTime iso={iso} timeZone={zone} /> <span className="text-slate-600">({formatWhen(iso, zone)})</span>
    </>
  );
}

// /connected-apps — the apps that can reach the driver's account: what each can do (what the
// driver agreed to on the consent screen), when it last used its access, and Revoke.
export default async function ConnectedAppsPage({ searchParams }: Props) {
  const session = await getDriverSession();
  if (!session) redirect("/login?callbackUrl=%2Fconnected-apps");
  const query = await searchParams;
  const [apps, account] = await Promise.all([listConnectedApps(session), getDriverAccount(session)]);
  const zone = zoneOf(account.timeZone);
  const revokedId = idParam.safeParse(query.revoked);
  const revokedName =
    revokedId.success && !apps.some((a) => a.appId === revokedId.data) ? await appName(revokedId.data) : null;
  const token = csrfToken(session, "revoke");
  const precisionToken = csrfToken(session, "precision");
  const changedId = idParam.safeParse(query.changed);
  const changed = changedId.success ? apps.find((a) => a.appId === changedId.data) : undefined;

  return (
    <>
      <SiteHeader session={session} current="connected-apps" />
      <main className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-6">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Connected apps</h1>
          <p className="mt-1 text-slate-700">
            These apps can reach your {session.environment} account: its details, vehicles and their data. Revoking an
            app ends its access at once.
          </p>
        </div>
        {revokedName ? (
          <p role="status" className="rounded-lg bg-emerald-50 px-4 py-3 text-sm text-emerald-900">
            {revokedName} no longer has access to your account.
          </p>
        ) : null}
        {changed ? (
          <p role="status" className="rounded-lg bg-emerald-50 px-4 py-3 text-sm text-emerald-900">
            {changed.name} now sees your vehicles&apos; location: {LOCATION_WORDS[changed.grant.location].label}.
          </p>
        ) : null}
        {apps.length === 0 ? (
          <Card>
            <p className="text-slate-700">No app has access to your account.</p>
          </Card>
        ) : (
          <ul className="flex flex-col gap-3" aria-label="Apps with access">
            {apps.map((app) => (
              <li
                key={app.appId}
                className="flex flex-col gap-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:flex-row sm:items-start sm:justify-between"
                data-app-id={app.appId}
              >
                <div className="min-w-0">
                  <h2 className="font-semibold text-slate-900">{app.name}</h2>
                  {app.ownerName ? <p className="text-sm text-slate-600">By {app.ownerName}</p> : null}
                  <dl className="mt-3 grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[auto_minmax(0,1fr)]">
                    <dt className="font-medium text-slate-600">
                      {app.how === "created" ? "Created your account" : "Allowed by you"}
                    </dt>
                    <dd className="text-slate-900" data-field="since">
                      <When at={app.since} zone={zone} />
                    </dd>
                    <dt className="font-medium text-slate-600">Last used its access</dt>
                    <dd className="text-slate-900" data-field="last-used">
                      {app.lastUsedAt ? <When at={app.lastUsedAt} zone={zone} /> : "Not yet"}
                    </dd>
                  </dl>
                  <p className="mt-3 text-sm font-medium text-slate-900" id={`abilities-${app.appId}`}>
                    It can, until you revoke it:
                  </p>
                  <ul
                    className="mt-1 list-disc space-y-1 pl-5 text-sm text-slate-700"
                    aria-labelledby={`abilities-${app.appId}`}
                  >
                    {appAbilities(app.grant).map((ability) => (
                      <li key={ability}>{capitalized(ability)}.</li>
                    ))}
                  </ul>
                  {app.locationAsked !== "none" ? (
                    <form
                      method="post"
                      action="/connected-apps/precision"
                      className="mt-3 flex flex-wrap items-end gap-2"
                    >
                      <input type="hidden" name="app_id" value={app.appId} />
                      <input type="hidden" name="csrf_token" value={precisionToken} />
                      <label className="flex flex-col text-sm font-medium text-slate-600">
                        Location
                        <select
                          name="location"
                          defaultValue={app.grant.location}
                          className="mt-1 rounded-md border border-slate-300 bg-white px-2 py-1 text-slate-900"
                          aria-label={`Location for ${app.name}`}
                        >
                          {precisionsUpTo(app.locationAsked).map((p) => (
                            <option key={p} value={p}>
                              {LOCATION_WORDS[p].label}
                            </option>
                          ))}
                        </select>
                      </label>
                      <Button type="submit" variant="secondary" aria-label={`Save location for ${app.name}`}>
                        Save
                      </Button>
                    </form>
                  ) : null}
                </div>
                <form method="post" action="/connected-apps/revoke" className="shrink-0">
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
