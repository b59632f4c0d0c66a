import type { Metadata } from "next";
import Link from "next/link";
import { ActionForm } from "@/components/console/action-form";
import { SubmitButton } from "@/components/console/fields";
import { InboxUrl } from "@/components/console/inbox-url";
import { VehicleRef } from "@/components/console/vehicle-ref";
import { EmptyState, Notice, Section } from "@/components/console/states";
import { SubscriptionFields } from "@/components/console/subscription-form";
import { connectedAccounts } from "@/server/surfaces/console/connected";
import { appInbox } from "@/server/surfaces/console/inbox";
import { vehicleNames } from "@/server/surfaces/console/vehicle-names";
import { consoleAppPage, ownedOr404, pageEnvironment, pageId } from "@/server/surfaces/console/pages";
import { listAppSubscriptions } from "@/server/surfaces/console/subscriptions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Subscriptions" };

type Props = {
  params: Promise<{ appId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

// /console/apps/{id}/subscriptions?env= — every subscription of the app (vehicle, account and
// system scope), their deliveries and whether each is active; create, delete, reactivate.
export default async function SubscriptionsPage({ params, searchParams }: Props) {
  const appId = pageId((await params).appId);
  const environment = pageEnvironment((await searchParams).env);
  const { session, csrfToken } = await consoleAppPage(appId, `/console/apps/${appId}/subscriptions?env=${environment}`);
  const [subscriptions, connected] = await Promise.all([
    ownedOr404(() => listAppSubscriptions(session.partnerUserId, appId, environment)),
    ownedOr404(() => connectedAccounts(session.partnerUserId, appId, environment)),
  ]);
  const accounts = "refused" in connected ? [] : connected.accounts;
  const names = await vehicleNames({
    environment,
    ids: "refused" in subscriptions ? [] : subscriptions.map((s) => s.vehicleId),
  });
  // The inbox is a sandbox receiver only: production subscriptions cannot use it.
  const inbox = environment === "sandbox" ? await appInbox(session.partnerUserId, appId) : null;

  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">Subscriptions</h1>
      {"refused" in subscriptions ? (
        <Notice tone="warn">{subscriptions.refused}</Notice>
      ) : (
        <>
          <Section title="New subscription" id="new-subscription">
            <ActionForm
              action="create-subscription"
              csrfToken={csrfToken}
              label="New subscription"
              revealTitle="Subscription created."
            >
              <input type="hidden" name="appId" value={appId} />
              <input type="hidden" name="environment" value={environment} />
              {inbox ? (
                <div className="mb-4">
                  <InboxUrl appId={appId} url={inbox.url} />
                </div>
              ) : null}
              <SubscriptionFields
                vehicles={accounts.flatMap((a) =>
                  a.vehicles.map((v) => ({
                    id: v.vehicleId,
                    label: `${v.label ?? v.name} (vehicle ${v.vehicleId}, ${a.username ?? `account ${a.id}`})`,
                  })),
                )}
                accounts={accounts.map((a) => ({
                  id: a.id,
                  label: `${a.firstName} ${a.lastName} (account ${a.id})`,
                }))}
              />
            </ActionForm>
          </Section>
          {subscriptions.length === 0 ? (
            <EmptyState title={`No ${environment} subscriptions yet`}>
              Create one above, or through the API (…/eventSubscription/{"{TYPE}"}/).
            </EmptyState>
          ) : (
            <ul className="flex flex-col gap-3" aria-label="Subscriptions">
              {subscriptions.map((s) => (
                <li
                  key={s.id}
                  className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
                  data-testid={`subscription-${s.id}`}
                >
                  <div className="flex flex-wrap items-baseline justify-between gap-2">
                    <h2 className="font-semibold">
                      {s._type}{" "}
                      <span className="font-normal text-slate-700">
                        · {s.notificationPeriod} · subscription {s.id}
                      </span>
                    </h2>
                    <span className="text-sm text-slate-700">
                      {s.scope === "VEHICLE" ? (
                        <VehicleRef
                          appId={appId}
                          environment={environment}
                          id={s.vehicleId}
                          vehicle={s.vehicleId === null ? undefined : names.get(s.vehicleId)}
                        />
                      ) : s.scope === "ACCOUNT" ? (
                        `account ${s.accountId}`
                      ) : (
                        "system"
                      )}
                      {s.deletionTimestamp ? ` · deleted ${s.deletionTimestamp}` : ` · created ${s.creationTimestamp}`}
                    </span>
                  </div>
                  {s.deliveries.length === 0 ? (
                    <p className="mt-2 text-sm text-slate-700">
                      No deliveries: notifications are read through the API or on the notifications page.
                    </p>
                  ) : (
                    <ul className="mt-2 flex flex-col gap-2" aria-label={`Deliveries of subscription ${s.id}`}>
                      {s.deliveries.map((d) => (
                        <li key={d.id} className="flex flex-wrap items-center gap-2 text-sm">
                          <span className="font-mono">{d.type}</span>
                          <span className="break-all">{"postUrl" in d ? d.postUrl : d.recipient}</span>
                          {d.active ? (
                            <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-900">
                              active
                            </span>
                          ) : (
                            <>
                              <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-900">
                                inactive
                              </span>
                              <span className="text-slate-700">{d.deactivationReason}</span>
                              {!s.deletionTimestamp ? (
                                <ActionForm
                                  action="reactivate-delivery"
                                  csrfToken={csrfToken}
                                  label={`Reactivate delivery ${d.id}`}
                                >
                                  <input type="hidden" name="appId" value={appId} />
                                  <input type="hidden" name="environment" value={environment} />
                                  <input type="hidden" name="subscriptionId" value={s.id} />
                                  <input type="hidden" name="deliveryId" value={d.id} />
                                  <SubmitButton variant="secondary">Reactivate</SubmitButton>
                                </ActionForm>
                              ) : null}
                            </>
                          )}
                        </li>
                      ))}
                    </ul>
                  )}
                  <div className="mt-3 flex flex-wrap gap-3">
                    <Link
                      className="inline-block min-h-11 content-center text-sm font-semibold text-blue-700 underline"
                      href={`/console/apps/${appId}/notifications?env=${environment}&subscription=${s.id}`}
                    >
                      Notifications
                    </Link>
                    {!s.deletionTimestamp && s.scope !== "SYSTEM" ? (
                      <ActionForm
                        action="send-test-notification"
                        csrfToken={csrfToken}
                        label={`Send a test notification for subscription ${s.id}`}
                        revealTitle="Test notification made; its deliveries are queued."
                      >
                        <input type="hidden" name="appId" value={appId} />
                        <input type="hidden" name="subscriptionId" value={s.id} />
                        <SubmitButton variant="secondary">Send a test notification</SubmitButton>
                      </ActionForm>
                    ) : null}
                    {!s.deletionTimestamp ? (
                      <ActionForm
                        action="delete-subscription"
                        csrfToken={csrfToken}
                        label={`Delete subscription ${s.id}`}
                        confirm={`Delete subscription ${s.id}? It stops firing; its notifications stay readable.`}
                      >
                        <input type="hidden" name="appId" value={appId} />
                        <input type="hidden" name="environment" value={environment} />
                        <input type="hidden" name="subscriptionId" value={s.id} />
                        <SubmitButton variant="danger">Delete</SubmitButton>
                      </ActionForm>
                    ) : null}
                  </div>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </>
  );
}
