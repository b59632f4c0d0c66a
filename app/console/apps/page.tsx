import type { Metadata } from "next";
import Link from "next/link";
import { ActionForm } from "@/components/console/action-form";
import { AppForm } from "@/components/console/app-form";
import { ConsoleHeader, ConsoleMain } from "@/components/console/console-header";
import { EmptyState, Section } from "@/components/console/states";
import { listApps } from "@/server/surfaces/console/apps";
import { consolePage } from "@/server/surfaces/console/pages";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Apps" };

// /console/apps — the partner's apps, and a new one.
export default async function AppsPage() {
  const { session, csrfToken } = await consolePage("/console/apps");
  const apps = await listApps(session.partnerUserId);
  return (
    <>
      <ConsoleHeader session={session} />
      <ConsoleMain>
        <h1 className="text-2xl font-bold tracking-tight">Your apps</h1>
        {apps.length === 0 ? (
          <EmptyState title="No apps yet">Create your first app below: it gets sandbox credentials at once.</EmptyState>
        ) : (
          <ul className="grid gap-3 sm:grid-cols-2" aria-label="Apps">
            {apps.map((app) => (
              <li key={app.id}>
                <Link
                  href={`/console/apps/${app.id}`}
                  className="block rounded-xl border border-slate-200 bg-white p-4 shadow-sm hover:border-blue-400"
                >
                  <span className="block font-semibold text-slate-900">{app.name}</span>
                  <span className="mt-1 block text-sm text-slate-700">
                    {app.isPublic ? "Public client" : "Confidential client"} ·{" "}
                    {app.obligationsConfirmedAt ? "sandbox and production" : "sandbox only"}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
        <Section title="Create an app" id="create-app">
          <ActionForm
            action="create-app"
            csrfToken={csrfToken}
            label="Create an app"
            className="flex flex-col gap-4"
            revealTitle="App created. Copy the sandbox client secret now: it is shown only once."
            refreshOnReveal
          >
            <AppForm submitLabel="Create app" />
          </ActionForm>
        </Section>
      </ConsoleMain>
    </>
  );
}
