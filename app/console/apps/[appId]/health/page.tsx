import type { Metadata } from "next";
import Link from "next/link";
import { ActionForm } from "@/components/console/action-form";
import { HealthFigures } from "@/components/console/delivery-health";
import { SubmitButton } from "@/components/console/fields";
import { EmptyState, Notice, Section } from "@/components/console/states";
import {
  appDeliveryHealth,
  HEALTH_DELIVERY_LIMIT,
  HEALTH_WINDOWS,
  healthWindow,
  type HealthWindow,
} from "@/server/surfaces/console/health";
import { consoleAppPage, ownedOr404, pageEnvironment, pageId } from "@/server/surfaces/console/pages";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Delivery health" };

type Props = {
  params: Promise<{ appId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

const STATE_BADGE = {
  active: "bg-emerald-100 text-emerald-900",
  retrying: "bg-amber-100 text-amber-950",
  deactivated: "bg-red-100 text-red-900",
} as const;

// /console/apps/{id}/health?env=&window= — whether the app's receivers are healthy, slow or failing:
// attempts, success rate, latency and failures over the last hour, day and week, the backlog, and
// each delivery's state with Reactivate for a deactivated one.
export default async function HealthPage({ params, searchParams }: Props) {
  const appId = pageId((await params).appId);
  const query = await searchParams;
  const environment = pageEnvironment(query.env);
  const window = healthWindow(query.window);
  const { session, csrfToken } = await consoleAppPage(
    appId,
    `/console/apps/${appId}/health?env=${environment}&window=${window}`,
  );
  const health = await ownedOr404(() => appDeliveryHealth(session.partnerUserId, appId, environment, window));
  const stride = HEALTH_WINDOWS[window].strideSeconds;

  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">Delivery health</h1>
      {"refused" in health ? (
        <Notice tone="warn">{health.refused}</Notice>
      ) : health.app === null ? (
        <EmptyState title={`No ${environment} deliveries yet`}>
          Give a subscription an HTTP_POST or EMAIL delivery on the{" "}
          <Link className="text-blue-700 underline" href={`/console/apps/${appId}/subscriptions?env=${environment}`}>
            subscriptions page
          </Link>
          ; its attempts are charted here.
        </EmptyState>
      ) : (
        <>
          <nav aria-label="Window" className="flex flex-wrap gap-2 text-sm">
            {(Object.keys(HEALTH_WINDOWS) as HealthWindow[]).map((w) => (
              <Link
                key={w}
                href={`/console/apps/${appId}/health?env=${environment}&window=${w}`}
                aria-current={w === window ? "true" : undefined}
                className={
                  `min-h-11 content-center rounded-full px-3 font-semibold ` +
                  `${w === window ? "bg-slate-900 text-white" : "bg-white text-slate-800 ring-1 ring-slate-300"}`
                }
              >
                {HEALTH_WINDOWS[w].label}
              </Link>
            ))}
          </nav>
          <Section title="All deliveries of this app" id="health-app">
            <HealthFigures testId="health-app" health={health.app} window={window} strideSeconds={stride} />
          </Section>
          {health.deliveries.map((d) => (
            <Section
              key={d.id}
              title={`${d.eventType} · subscription ${d.subscriptionId} · delivery ${d.id}`}
              id={`health-delivery-${d.id}-title`}
            >
              <div
                className="mb-4 flex flex-wrap items-center gap-2 text-sm"
                data-testid={`health-delivery-${d.id}-state`}
              >
                <span className="font-mono">{d.type}</span>
                <span className="break-all">{d.target}</span>
                <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATE_BADGE[d.state]}`}>
                  {d.state}
                </span>
                {d.state === "retrying" && d.health.backlog.failingSince ? (
                  <span className="text-slate-700">failing since {d.health.backlog.failingSince}</span>
                ) : null}
                {d.state === "deactivated" ? (
                  <>
                    <span className="text-slate-700">{d.deactivationReason ?? "deactivated"}</span>
                    <ActionForm
                      action="reactivate-delivery"
                      csrfToken={csrfToken}
                      label={`Reactivate delivery ${d.id}`}
                    >
                      <input type="hidden" name="appId" value={appId} />
                      <input type="hidden" name="environment" value={environment} />
                      <input type="hidden" name="subscriptionId" value={d.subscriptionId} />
                      <input type="hidden" name="deliveryId" value={d.id} />
                      <input type="hidden" name="returnTo" value="health" />
                      <SubmitButton variant="secondary">Reactivate</SubmitButton>
                    </ActionForm>
                  </>
                ) : null}
              </div>
              <HealthFigures
                testId={`health-delivery-${d.id}`}
                health={d.health}
                window={window}
                strideSeconds={stride}
              />
            </Section>
          ))}
          {health.more ? (
            <Notice>
              Only the newest {HEALTH_DELIVERY_LIMIT} deliveries are shown one by one; the app&apos;s figures above
              cover those.
            </Notice>
          ) : null}
        </>
      )}
    </>
  );
}
