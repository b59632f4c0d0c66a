import type { Metadata } from "next";
import Link from "next/link";
import { ActionForm } from "@/components/console/action-form";
import { CopyButton } from "@/components/console/copy-value";
import { DeliveryLogView } from "@/components/console/delivery-log";
import { SubmitButton } from "@/components/console/fields";
import { EmptyState, Section } from "@/components/console/states";
import { VehicleRef } from "@/components/console/vehicle-ref";
import { notificationDeliveryLog } from "@/server/surfaces/console/deliveries";
import { appNotification } from "@/server/surfaces/console/notifications";
import { consoleAppPage, ownedOr404, pageId } from "@/server/surfaces/console/pages";
import { vehicleNames } from "@/server/surfaces/console/vehicle-names";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Notification" };

type Props = { params: Promise<{ appId: string; notificationId: string }> };

// /console/apps/{id}/notifications/{nid} — one notification as the API returns it (and as HTTP
// POST delivers it, with httpStatusCode 0), every attempt of each of its deliveries, and resend.
export default async function NotificationPage({ params }: Props) {
  const raw = await params;
  const appId = pageId(raw.appId);
  const notificationId = pageId(raw.notificationId);
  const { session, csrfToken } = await consoleAppPage(appId, `/console/apps/${appId}/notifications/${notificationId}`);
  const loaded = await ownedOr404(() => appNotification(session.partnerUserId, appId, notificationId));
  if ("refused" in loaded) throw new Error(loaded.refused);
  const { row, body } = loaded;
  const log = await notificationDeliveryLog(session.partnerUserId, appId, notificationId);
  const json = JSON.stringify(body, null, 2);
  const vehicle =
    row.vehicleId === null
      ? undefined
      : (await vehicleNames({ environment: row.environment, ids: [row.vehicleId] })).get(row.vehicleId);

  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">
        Notification {row.id} <span className="font-normal text-slate-700">· {row.type}</span>
      </h1>
      {row.vehicleId !== null ? (
        <p className="text-sm">
          Vehicle: <VehicleRef appId={appId} environment={row.environment} id={row.vehicleId} vehicle={vehicle} />
        </p>
      ) : null}
      <p>
        <Link
          className="inline-block min-h-11 content-center text-sm font-semibold text-blue-700 underline"
          href={`/console/apps/${appId}/notifications?env=${row.environment}`}
        >
          Back to the {row.environment} notifications
        </Link>
      </p>
      <Section title="Body" id="body">
        <pre
          id="notification-json"
          className="overflow-x-auto rounded-lg bg-slate-900 p-4 text-sm text-slate-50"
          tabIndex={0}
          aria-label="Notification JSON"
          data-testid="notification-json"
        >
          {json}
        </pre>
        <div className="mt-3">
          <CopyButton label="JSON" value={json} shownId="notification-json" />
        </div>
      </Section>
      <Section title="Delivery attempts" id="attempts">
        {log.length === 0 ? (
          <EmptyState title="No deliveries">
            This notification&apos;s subscription had no active delivery when it fired: it is read through the API only.
          </EmptyState>
        ) : (
          <div className="flex flex-col gap-4">
            <p className="text-sm text-slate-700">
              Last receiver status: {row.httpStatusCode === 0 ? "none yet" : row.httpStatusCode}.
            </p>
            <DeliveryLogView deliveries={log} />
            <ActionForm action="resend-notification" csrfToken={csrfToken} label="Resend this notification">
              <input type="hidden" name="appId" value={appId} />
              <input type="hidden" name="notificationId" value={row.id} />
              <p className="mb-2 text-sm text-slate-700">
                Sends it again through every delivery that has finished (delivered or failed) and is active; queued ones
                are left as they are.
              </p>
              <SubmitButton variant="secondary">Resend</SubmitButton>
            </ActionForm>
          </div>
        )}
      </Section>
    </>
  );
}
