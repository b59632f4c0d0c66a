import type { Metadata } from "next";
import Link from "next/link";
import { ActionForm } from "@/components/console/action-form";
import { DataTable } from "@/components/console/data-table";
import { DeliveryStateBadge } from "@/components/console/delivery-log";
import { SubmitButton, TextField } from "@/components/console/fields";
import { LocalTime } from "@/components/console/local-time";
import { EmptyState, Notice, Section } from "@/components/console/states";
import { VehicleRef } from "@/components/console/vehicle-ref";
import {
  DELIVERY_STATES,
  listAppNotifications,
  notificationFilters,
  NOTIFICATION_PAGE_SIZE,
  unappliedFilters,
} from "@/server/surfaces/console/notifications";
import { consoleAppPage, ownedOr404, pageEnvironment, pageId } from "@/server/surfaces/console/pages";
import { vehicleNames } from "@/server/surfaces/console/vehicle-names";
import { formatDateTime } from "@/common/http/datetime";
import { EVENT_TYPE_NAMES } from "@/common/subscriptions/event-types";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Notifications" };

type Props = {
  params: Promise<{ appId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const input = "min-h-11 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base";

// /console/apps/{id}/notifications?env=&vehicle=&type=&from=&to=&page= — the app's notifications,
// newest first, filtered by vehicle, subscription, type and event time (UTC).
export default async function NotificationsPage({ params, searchParams }: Props) {
  const appId = pageId((await params).appId);
  const query = await searchParams;
  const environment = pageEnvironment(query.env);
  const filters = notificationFilters.parse({
    vehicle: first(query.vehicle),
    subscription: first(query.subscription),
    type: first(query.type),
    status: first(query.status),
    from: first(query.from),
    to: first(query.to),
    page: first(query.page),
  });
  const unapplied = unappliedFilters({ from: first(query.from), to: first(query.to) }, filters);
  const { session, csrfToken } = await consoleAppPage(appId, `/console/apps/${appId}/notifications?env=${environment}`);
  const list = await ownedOr404(() => listAppNotifications(session.partnerUserId, appId, environment, filters));
  const names = await vehicleNames({
    environment,
    ids: "refused" in list ? [] : list.items.map((i) => i.row.vehicleId),
  });

  const pageLink = (page: number) => {
    const q = new URLSearchParams({ env: environment });
    for (const key of ["vehicle", "subscription", "type", "status", "from", "to"] as const)
      if (filters[key] !== undefined) q.set(key, String(filters[key]));
    q.set("page", String(page));
    return `/console/apps/${appId}/notifications?${q}`;
  };

  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">Notifications</h1>
      <form
        method="get"
        aria-label="Filter notifications"
        className="grid gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-6"
      >
        <input type="hidden" name="env" value={environment} />
        {filters.subscription !== undefined ? (
          <input type="hidden" name="subscription" value={filters.subscription} />
        ) : null}
        <div className="flex flex-col gap-1">
          <label htmlFor="filter-vehicle" className="text-sm font-medium">
            Vehicle id
          </label>
          <input
            id="filter-vehicle"
            name="vehicle"
            inputMode="numeric"
            defaultValue={filters.vehicle ?? ""}
            className={input}
          />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="filter-type" className="text-sm font-medium">
            Type
          </label>
          <select id="filter-type" name="type" defaultValue={filters.type ?? ""} className={input}>
            <option value="">Any type</option>
            {EVENT_TYPE_NAMES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="filter-status" className="text-sm font-medium">
            Delivery
          </label>
          <select id="filter-status" name="status" defaultValue={filters.status?.toLowerCase() ?? ""} className={input}>
            <option value="">Any state</option>
            {DELIVERY_STATES.map((t) => (
              <option key={t} value={t.toLowerCase()}>
                {t.toLowerCase()}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="filter-from" className="text-sm font-medium">
            From (UTC)
          </label>
          <input
            id="filter-from"
            name="from"
            type="datetime-local"
            defaultValue={filters.from ?? ""}
            className={input}
          />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="filter-to" className="text-sm font-medium">
            To (UTC)
          </label>
          <input id="filter-to" name="to" type="datetime-local" defaultValue={filters.to ?? ""} className={input} />
        </div>
        <div className="flex items-end gap-2">
          <button
            type="submit"
            className="min-h-11 rounded-lg bg-blue-700 px-4 text-sm font-semibold text-white hover:bg-blue-800"
          >
            Filter
          </button>
          <Link
            href={`/console/apps/${appId}/notifications?env=${environment}`}
            className="min-h-11 content-center px-2 text-sm font-semibold text-blue-700 underline"
          >
            Clear
          </Link>
        </div>
      </form>
      {unapplied.length > 0 ? (
        <div role="alert">
          <Notice tone="warn">
            {unapplied.map((u) => (
              <p key={u.field} data-field={u.field}>
                {u.label} is not applied: {u.message}
              </p>
            ))}
          </Notice>
        </div>
      ) : null}
      {filters.subscription !== undefined ? (
        <p className="text-sm text-slate-700">Showing subscription {filters.subscription} only.</p>
      ) : null}
      {"refused" in list ? (
        <Notice tone="warn">{list.refused}</Notice>
      ) : list.items.length === 0 ? (
        <EmptyState title="No notifications match">
          Notifications appear when a subscription fires: post a data set for a subscribed vehicle, or send a test
          notification through the API.
        </EmptyState>
      ) : (
        <>
          <p className="text-sm text-slate-700" role="status">
            {list.total} notification{list.total === 1 ? "" : "s"}; page {filters.page} of{" "}
            {Math.max(1, Math.ceil(list.total / NOTIFICATION_PAGE_SIZE))}.
          </p>
          <DataTable
            label="Notifications table"
            caption="Notifications"
            framed
            rows={list.items}
            rowKey={(i) => i.row.id}
            rowAttributes={(i) => ({ "data-testid": `notification-${i.row.id}` })}
            columns={[
              {
                key: "id",
                header: "Id",
                cell: ({ row }) => (
                  <Link
                    className="inline-block min-h-11 content-center font-mono text-blue-700 underline"
                    href={`/console/apps/${appId}/notifications/${row.id}`}
                  >
                    {row.id}
                  </Link>
                ),
              },
              {
                key: "type",
                header: "Type",
                className: "font-mono",
                cell: ({ row }) => `${row.type}${row.test ? " (test)" : ""}`,
              },
              {
                key: "vehicle",
                header: "Vehicle",
                cell: ({ row }) => (
                  <VehicleRef
                    appId={appId}
                    environment={environment}
                    id={row.vehicleId}
                    vehicle={row.vehicleId === null ? undefined : names.get(row.vehicleId)}
                  />
                ),
              },
              {
                key: "time",
                header: "Event time",
                cell: ({ row }) => <LocalTime iso={row.eventAt.toISOString()} wire={formatDateTime(row.eventAt)} />,
              },
              {
                key: "status",
                header: "HTTP status",
                className: "font-mono",
                cell: ({ row }) => (row.httpStatusCode === 0 ? "—" : row.httpStatusCode),
              },
              {
                key: "delivery",
                header: "Delivery",
                cell: ({ row, deliveryState }) => (
                  <span data-testid={`state-${row.id}`}>
                    {deliveryState ? <DeliveryStateBadge state={deliveryState} /> : "—"}
                  </span>
                ),
              },
            ]}
          />
          <nav aria-label="Pages" className="flex gap-3">
            {filters.page > 1 ? (
              <Link
                className="min-h-11 content-center font-semibold text-blue-700 underline"
                href={pageLink(filters.page - 1)}
              >
                Newer
              </Link>
            ) : null}
            {filters.page * NOTIFICATION_PAGE_SIZE < list.total ? (
              <Link
                className="min-h-11 content-center font-semibold text-blue-700 underline"
                href={pageLink(filters.page + 1)}
              >
                Older
              </Link>
            ) : null}
          </nav>
        </>
      )}
      <Section title="Resend failed deliveries" id="resend-failed">
        <ActionForm
          action="resend-failed"
          csrfToken={csrfToken}
          label="Resend failed deliveries"
          className="flex flex-wrap items-end gap-3"
          revealTitle="Failed deliveries re-queued."
        >
          <input type="hidden" name="appId" value={appId} />
          <input type="hidden" name="environment" value={environment} />
          <p className="w-full text-sm text-slate-700">
            Every failed delivery of a {environment} notification made since the time you give (UTC) goes back on the
            queue, at most 1000 per click. Deliveries that are deactivated stay as they are: reactivate them on the
            subscriptions page first.
          </p>
          <TextField name="since" label="Failed since (UTC)" type="datetime-local" />
          <SubmitButton variant="secondary">Resend all failed</SubmitButton>
        </ActionForm>
      </Section>
    </>
  );
}
