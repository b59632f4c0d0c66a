import type { Metadata } from "next";
import { LocalTime } from "@/components/console/local-time";
import { EmptyState, Notice } from "@/components/console/states";
import { appOutbox } from "@/server/surfaces/console/deliveries";
import { formatDateTime } from "@/common/http/datetime";
import { consoleAppPage, pageId } from "@/server/surfaces/console/pages";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "E-mail outbox" };

type Props = { params: Promise<{ appId: string }> };

// /console/apps/{id}/outbox — the e-mails the app's EMAIL deliveries made while no SMTP server
// was configured (SMTP_URL unset): kept in email_outbox instead of sent, newest first.
export default async function OutboxPage({ params }: Props) {
  const appId = pageId((await params).appId);
  const { session } = await consoleAppPage(appId, `/console/apps/${appId}/outbox`);
  const outbox = await appOutbox(session.partnerUserId, appId);

  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">E-mail outbox</h1>
      {outbox.smtpConfigured ? (
        <Notice>
          This service sends e-mail through its SMTP server. The outbox holds only mails made while none was configured.
        </Notice>
      ) : (
        <Notice>
          No SMTP server is configured: e-mail deliveries are not sent but kept here, as they would have been mailed.
          The newest {outbox.pageSize} are shown.
        </Notice>
      )}
      {outbox.mails.length === 0 ? (
        <EmptyState title="No e-mails">E-mails appear when a subscription with an EMAIL delivery fires.</EmptyState>
      ) : (
        <ol className="flex flex-col gap-3" aria-label="E-mails">
          {outbox.mails.map((m) => (
            <li
              key={m.id}
              className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
              data-testid={`mail-${m.id}`}
            >
              <dl className="grid gap-x-3 gap-y-1 text-sm sm:grid-cols-[6rem_1fr]">
                <dt className="font-semibold">To</dt>
                <dd className="break-all">{m.recipient}</dd>
                <dt className="font-semibold">Subject</dt>
                <dd>{m.subject}</dd>
                <dt className="font-semibold">Time</dt>
                <dd>
                  <LocalTime iso={m.createdAt.toISOString()} wire={formatDateTime(m.createdAt)} />
                </dd>
              </dl>
              <pre
                className="mt-3 max-h-80 overflow-auto rounded-lg bg-slate-100 p-3 text-sm whitespace-pre-wrap"
                tabIndex={0}
                aria-label={`Body of e-mail ${m.id}`}
              >
                {m.text}
              </pre>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
