import type { Metadata } from "next";
import { ActionForm } from "@/components/console/action-form";
import { SelectField, SubmitButton } from "@/components/console/fields";
import { InboxLive } from "@/components/console/inbox-live";
import { InboxUrl } from "@/components/console/inbox-url";
import { Section } from "@/components/console/states";
import { appInbox, appInboxRequests } from "@/server/surfaces/console/inbox";
import { consoleAppPage, pageId } from "@/server/surfaces/console/pages";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sandbox inbox" };

type Props = { params: Promise<{ appId: string }> };

// /console/apps/{id}/inbox — the app's sandbox inbox: its URL, what it answers, and the last 100
// requests it received, updated live (docs/console.md#sandbox-inbox).
export default async function InboxPage({ params }: Props) {
  const appId = pageId((await params).appId);
  const { session, csrfToken } = await consoleAppPage(appId, `/console/apps/${appId}/inbox`);
  const inbox = await appInbox(session.partnerUserId, appId);
  const requests = await appInboxRequests(session.partnerUserId, appId);

  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">Sandbox inbox</h1>
      <Section title="Receiver" id="inbox-receiver">
        <div className="flex flex-col gap-4">
          <InboxUrl appId={appId} url={inbox.url} showLink={false} />
          <ActionForm
            action="set-inbox-answer"
            csrfToken={csrfToken}
            label="Inbox answer setting"
            className="flex flex-col gap-3 sm:flex-row sm:items-end"
          >
            <input type="hidden" name="appId" value={appId} />
            <SelectField
              name="answerStatus"
              label="The inbox answers"
              defaultValue={String(inbox.answerStatus)}
              hint={
                "500 makes deliveries retry; 401 makes an oauth2 delivery refresh its token (other deliveries are " +
                "deactivated, as by any receiver answering 401)."
              }
            >
              <option value="200">200 OK (delivered)</option>
              <option value="500">500 Internal Server Error (retried)</option>
              <option value="401">401 Unauthorized (token refresh)</option>
            </SelectField>
            <div>
              <SubmitButton variant="secondary">Save</SubmitButton>
            </div>
          </ActionForm>
        </div>
      </Section>
      <Section title="Requests" id="inbox-requests">
        <InboxLive appId={appId} initial={requests} />
      </Section>
    </>
  );
}
