import type { Metadata } from "next";
import Link from "next/link";
import { AppTabs } from "@/components/console/app-tabs";
import { ConsoleHeader, ConsoleMain } from "@/components/console/console-header";
import { CopyValue } from "@/components/console/copy-value";
import { Notice, Section } from "@/components/console/states";
import { appOverview } from "@/server/console/apps";
import { appNotification } from "@/server/console/notifications";
import { consolePage, ownedOr404, pageId } from "@/server/console/pages";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Notification" };

type Props = { params: Promise<{ appId: string; notificationId: string }> };

// /console/apps/{id}/notifications/{nid} — one notification as the API returns it (and as HTTP
// POST delivers it, with httpStatusCode 0). The delivery attempts and resend come with issue 6.
export default async function NotificationPage({ params }: Props) {
  const raw = await params;
  const appId = pageId(raw.appId);
  const notificationId = pageId(raw.notificationId);
  const { session } = await consolePage(`/console/apps/${appId}/notifications/${notificationId}`);
  const overview = await ownedOr404(() => appOverview(session.partnerUserId, appId));
  if ("refused" in overview) throw new Error(overview.refused);
  const loaded = await ownedOr404(() => appNotification(session.partnerUserId, appId, notificationId));
  if ("refused" in loaded) throw new Error(loaded.refused);
  const { row, body } = loaded;
  const json = JSON.stringify(body, null, 2);

  return (
    <>
      <ConsoleHeader session={session} />
      <ConsoleMain>
        <h1 className="text-2xl font-bold tracking-tight">
          Notification {row.id} <span className="font-normal text-slate-700">· {row.type}</span>
        </h1>
        <AppTabs appId={appId} appName={overview.app.name} current="notifications" />
        <p>
          <Link className="inline-block min-h-11 content-center text-sm font-semibold text-blue-700 underline" href={`/console/apps/${appId}/notifications?env=${row.environment}`}>
            Back to the {row.environment} notifications
          </Link>
        </p>
        <Section title="Body" id="body">
          <pre className="overflow-x-auto rounded-lg bg-slate-900 p-4 text-sm text-slate-50" tabIndex={0} aria-label="Notification JSON" data-testid="notification-json">
            {json}
          </pre>
          <dl className="mt-3">
            <CopyValue label="JSON" value={json} />
          </dl>
        </Section>
        <Section title="Delivery attempts" id="attempts">
          {/* Issue 6 (delivery) lists each attempt here (time, status, latency, error) with a resend button. */}
          <Notice>The per-attempt delivery log and resend are added with webhook delivery. Last receiver status: {row.httpStatusCode === 0 ? "none yet" : row.httpStatusCode}.</Notice>
        </Section>
      </ConsoleMain>
    </>
  );
}
