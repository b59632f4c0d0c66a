import { formatDateTime } from "@/common/http/datetime";
import { inboxUrl } from "@/server/inbox/address";
import { ensureInbox, listInboxRequests, setAnswerStatus, type InboxRequestRow } from "@/server/inbox/queries";
import type { AnswerStatus } from "@/server/inbox/receive";
import { getOwnedApp } from "./apps";

// The partner console's side of the sandbox inbox: its URL, what it answers, and what reached it,
// always for the partner's own app (another app is a 404).

export type InboxRequestView = {
  id: number;
  receivedAt: string;
  /** The same moment as the API writes DateTimes. */
  receivedAtWire: string;
  method: string;
  headers: [string, string][];
  body: string;
  answerStatus: number;
  signatureValid: boolean | null;
  signatureNote: string;
};

// Headers sorted by name: the Standard Webhooks three and the partner's postHeaders are easy to find.
export const inboxRequestView = (r: InboxRequestRow): InboxRequestView => ({
  id: r.id,
  receivedAt: r.receivedAt.toISOString(),
  receivedAtWire: formatDateTime(r.receivedAt),
  method: r.method,
  headers: Object.entries(r.headers).sort(([a], [b]) => a.localeCompare(b)),
  body: r.body,
  answerStatus: r.answerStatus,
  signatureValid: r.signatureValid,
  signatureNote: r.signatureNote,
});

/** The app's inbox URL and setting (the inbox is made on first view). */
export async function appInbox(partnerUserId: number, appId: number) {
  await getOwnedApp(partnerUserId, appId);
  const inbox = await ensureInbox({ appId });
  return { url: inboxUrl(inbox.token), answerStatus: inbox.answerStatus };
}

/** Newest first; with afterId only newer ones (the live view's next batch). */
export async function appInboxRequests(
  partnerUserId: number,
  appId: number,
  afterId?: number,
): Promise<InboxRequestView[]> {
  await getOwnedApp(partnerUserId, appId);
  return (await listInboxRequests({ appId, afterId })).map(inboxRequestView);
}

export async function setInboxAnswer(partnerUserId: number, appId: number, answerStatus: AnswerStatus): Promise<void> {
  await getOwnedApp(partnerUserId, appId);
  await ensureInbox({ appId });
  await setAnswerStatus({ appId, answerStatus });
}
