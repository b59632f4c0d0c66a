import type { Metadata } from "next";
import Link from "next/link";
import { ActionForm } from "@/components/console/action-form";
import { LocalTime } from "@/components/console/local-time";
import { ConnectDevice } from "@/components/devices/connect-device";
import { formatDateTime } from "@/common/http/datetime";
import { DataTable } from "@/components/console/data-table";
import { SubmitButton } from "@/components/console/fields";
import { EmptyState, Notice, Section } from "@/components/console/states";
import { connectedAccounts } from "@/server/surfaces/console/connected";
import { sandboxDevices } from "@/server/surfaces/console/devices";
import { consoleAppPage, ownedOr404, pageEnvironment, pageId } from "@/server/surfaces/console/pages";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Connected accounts" };

type Props = {
  params: Promise<{ appId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

// /console/apps/{id}/accounts?env= — the accounts the app created or that authorized it, with
// their vehicles; in the sandbox, a test account and a vehicle in two clicks, and per vehicle how
// to connect a device and what the gateway saw of it.
export default async function AccountsPage({ params, searchParams }: Props) {
  const appId = pageId((await params).appId);
  const environment = pageEnvironment((await searchParams).env);
  const { session, csrfToken } = await consoleAppPage(appId, `/console/apps/${appId}/accounts?env=${environment}`);
  const data = await ownedOr404(() => connectedAccounts(session.partnerUserId, appId, environment));
  const devices =
    environment === "sandbox" ? await ownedOr404(() => sandboxDevices(session.partnerUserId, appId)) : null;
  const time = (at: Date) => <LocalTime iso={at.toISOString()} wire={formatDateTime(at)} />;

  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">Connected accounts</h1>
      {environment === "sandbox" ? (
        <Section title="Test data" id="test-data">
          <p className="text-sm text-slate-700">
            Create a sandbox driver account as your app would (POST /account/), then give it a vehicle with a device
            serial.
          </p>
          <div className="mt-3">
            <ActionForm
              action="create-test-account"
              csrfToken={csrfToken}
              label="Create a test account"
              revealTitle="Test account created. Its password is shown only once (sign in on the driver site with the sandbox switch)."
            >
              <input type="hidden" name="appId" value={appId} />
              <SubmitButton>Create test account</SubmitButton>
            </ActionForm>
          </div>
        </Section>
      ) : null}
      {"refused" in data ? (
        <Notice tone="warn">{data.refused}</Notice>
      ) : data.accounts.length === 0 ? (
        <EmptyState title={`No ${environment} accounts yet`}>
          Accounts appear here when your app creates one through the API or a driver authorizes it on the authorization
          page.
        </EmptyState>
      ) : (
        <ul className="flex flex-col gap-4" aria-label="Accounts">
          {data.accounts.map((account) => (
            <li
              key={account.id}
              className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
              data-testid={`account-${account.id}`}
            >
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h2 className="font-semibold">
                  {account.firstName} {account.lastName}{" "}
                  <span className="font-normal text-slate-600">
                    · {account.username ?? "no username"} · account {account.id}
                  </span>
                </h2>
                <span className="text-sm text-slate-700">
                  {account.grant?.source === "created" ? "created by this app" : "authorized this app"}
                </span>
              </div>
              {account.vehicles.length === 0 ? (
                <p className="mt-2 text-sm text-slate-700">No vehicles.</p>
              ) : (
                <DataTable
                  className="mt-3"
                  label={`Vehicles of account ${account.id}`}
                  caption={`Vehicles of account ${account.id}`}
                  minWidth="28rem"
                  rows={account.vehicles}
                  rowKey={(v) => v.vehicleId}
                  // The target of the console's vehicle links (…/accounts#vehicle-12), highlighted when followed.
                  rowAttributes={(v) => ({ id: `vehicle-${v.vehicleId}`, className: "target:bg-amber-50" })}
                  columns={[
                    { key: "id", header: "Vehicle", className: "font-mono", cell: (v) => v.vehicleId },
                    { key: "label", header: "Label", cell: (v) => v.label ?? v.name },
                    { key: "device", header: "Device", className: "font-mono", cell: (v) => v.deviceId ?? "—" },
                    {
                      key: "position",
                      header: "Last position",
                      cell: (v) => (v.lastWaypoint ? `${v.lastWaypoint.latitude}, ${v.lastWaypoint.longitude}` : "—"),
                    },
                    {
                      key: "events",
                      header: "Events",
                      cell: (v) => (
                        <Link
                          className="inline-block min-h-11 content-center text-blue-700 underline"
                          href={`/console/apps/${appId}/notifications?env=${environment}&vehicle=${v.vehicleId}`}
                        >
                          Notifications
                        </Link>
                      ),
                    },
                  ]}
                />
              )}
              {devices && !("refused" in devices)
                ? account.vehicles.map((v) => {
                    const status = devices.byVehicle.get(v.vehicleId);
                    return status ? (
                      <details
                        key={v.vehicleId}
                        className="mt-3 rounded-lg border border-slate-200 px-3 py-2"
                        data-testid={`device-${v.vehicleId}`}
                      >
                        <summary className="cursor-pointer py-2 font-medium">
                          Connect a device to {v.label ?? v.name}{" "}
                          <span className="font-mono font-normal text-slate-700">#{v.vehicleId}</span>
                        </summary>
                        <div className="mt-2">
                          <ConnectDevice
                            status={status}
                            endpoints={devices.endpoints}
                            environment="sandbox"
                            time={time}
                            noIdentifier={
                              <>
                                Give the vehicle one with <code className="font-mono">POST /vehicle/{v.vehicleId}</code>{" "}
                                and a <code className="font-mono">deviceId</code>.
                              </>
                            }
                          />
                        </div>
                      </details>
                    ) : null;
                  })
                : null}
              {environment === "sandbox" ? (
                <div className="mt-3">
                  <ActionForm
                    action="create-test-vehicle"
                    csrfToken={csrfToken}
                    label={`Add a test vehicle to account ${account.id}`}
                    revealTitle="Test vehicle created."
                  >
                    <input type="hidden" name="appId" value={appId} />
                    <input type="hidden" name="accountId" value={account.id} />
                    <SubmitButton variant="secondary">Add test vehicle</SubmitButton>
                  </ActionForm>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
