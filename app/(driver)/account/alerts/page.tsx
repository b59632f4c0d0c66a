import type { Metadata } from "next";
import Link from "next/link";
import { AlertSettingsForm } from "@/components/driver/alert-settings-form";
import { SiteHeader } from "@/components/site/site-header";
import { Card } from "@/components/ui/card";
import { getDriverAlertSettings } from "@/server/surfaces/driver/alerts";
import { requireDriver } from "../../_lib/driver-page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Alert settings" };

// /account/alerts — which alerts the driver wants, on which channels, thresholds, quiet hours, and a test per channel.
export default async function AlertSettingsPage() {
  const session = await requireDriver("/account/alerts");
  const settings = await getDriverAlertSettings(session);
  return (
    <>
      <SiteHeader session={session} current="alerts" />
      <main className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-6">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Alert settings</h1>
          <p className="mt-1 text-slate-700">
            Choose what you are told about, and how. A condition that comes and goes (a speed around your limit) alerts
            once, until it has been clear for two minutes. Every alert is listed on the{" "}
            <Link className="text-blue-700 underline" href="/alerts">
              alerts page
            </Link>
            .
          </p>
        </div>
        <Card>
          <AlertSettingsForm settings={settings} />
        </Card>
      </main>
    </>
  );
}
