import type { Metadata } from "next";
import Link from "next/link";
import { BrowserNotificationsSwitch } from "@/components/alerts/browser-notifications-switch";
import { AccountForm } from "@/components/driver/account-form";
import { DeleteAccount } from "@/components/driver/delete-account";
import { DownloadData } from "@/components/driver/download-data";
import { PasswordForm } from "@/components/driver/password-form";
import { SiteHeader } from "@/components/site/site-header";
import { Card, EnvironmentBadge } from "@/components/ui/card";
import { pushSettings } from "@/server/alerts/push/service";
import { getDriverAccount } from "@/server/surfaces/driver/account";
import { listDriverVehicles } from "@/server/surfaces/driver/vehicles";
import { requireDriver } from "../_lib/driver-page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Account" };

// /account — the driver's account: its fields, the password, browser notifications, and deleting it.
export default async function AccountPage() {
  const session = await requireDriver("/account");
  const [account, vehicles, push] = await Promise.all([
    getDriverAccount(session),
    listDriverVehicles(session),
    pushSettings({ accountId: session.accountId }),
  ]);

  return (
    <>
      <SiteHeader session={session} current="account" />
      <main className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-6">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Account</h1>
          <p className="mt-1 text-slate-700">
            Your <EnvironmentBadge environment={session.environment} /> account, number {account.id}.
          </p>
        </div>
        <div className="grid gap-6 lg:grid-cols-2">
          <Card>
            <h2 className="mb-4 text-lg font-semibold">Details</h2>
            <AccountForm account={account} />
          </Card>
          <div className="flex flex-col gap-6">
            <Card>
              <h2 className="mb-4 text-lg font-semibold">Password</h2>
              <PasswordForm />
            </Card>
            <Card>
              <h2 className="text-lg font-semibold">Browser notifications</h2>
              <p className="mb-4 mt-2 text-sm text-slate-700">
                Alerts about your vehicles as notifications of this browser, even while the site is closed. The browser
                asks for your permission when you turn them on.
                {push.browsers.length > 0
                  ? ` On in ${push.browsers.length === 1 ? "1 browser" : `${push.browsers.length} browsers`} of yours.`
                  : ""}
              </p>
              <BrowserNotificationsSwitch vapidPublicKey={push.publicKey} />
            </Card>
            <Card>
              <h2 className="text-lg font-semibold">Your data</h2>
              <p className="mb-4 mt-2 text-sm text-slate-700">
                One ZIP file with your account, vehicles, trips (GPX and GeoJSON), every data point (CSV),
                notifications, connected apps and the{" "}
                <Link className="text-blue-700 underline" href="/data-access">
                  access log
                </Link>
                .
              </p>
              <DownloadData />
            </Card>
            <Card>
              <h2 className="text-lg font-semibold">Delete account</h2>
              <p className="mb-4 mt-2 text-sm text-slate-700">
                Removes the account, all its vehicles and all their data for good.
              </p>
              <DeleteAccount username={account.username ?? ""} vehicleCount={vehicles.length} />
            </Card>
          </div>
        </div>
      </main>
    </>
  );
}
