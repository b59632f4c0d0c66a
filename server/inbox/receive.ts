import { db } from "@/db/client";
import { insertInboxRequest, lockInboxByToken, secretsSigningNow, type InboxRequestRow } from "./queries";
import { checkSignature } from "./verify";

// One request arriving at a sandbox inbox: the same function serves the HTTP route
// (POST /sandbox/inbox/{token}) and the delivery worker, which hands its signed POST over here
// instead of sending it through the network (docs/decisions/0040-sandbox-inbox-in-process.md). Verify, store within the cap,
// and answer as the partner told the inbox to.

export const INBOX_MAX_BODY_BYTES = 256 * 1024;

export type InboxAnswer = {
  status: number;
  body: string;
  headers: Record<string, string>;
  appId: number | null;
  stored: InboxRequestRow | null;
};

const json = { "content-type": "application/json" };

export type AnswerStatus = 200 | 401 | 500;

function answerFor(status: number, requestId: number): Omit<InboxAnswer, "appId" | "stored"> {
  if (status === 500)
    return {
      status,
      headers: json,
      body: JSON.stringify({
        error: "The sandbox inbox is set to answer 500 (partner console, Sandbox inbox).",
        requestId,
      }),
    };
  if (status === 401)
    return {
      status,
      headers: { ...json, "www-authenticate": 'Bearer error="invalid_token"' },
      body: JSON.stringify({
        error: "The sandbox inbox is set to answer 401 (partner console, Sandbox inbox).",
        requestId,
      }),
    };
  return { status: 200, headers: json, body: JSON.stringify({ received: true, requestId }) };
}

/** `headers` with lower-case names. A token no inbox has is a 404 and nothing is stored. */
export async function receiveInboxRequest({
  token,
  method,
  headers,
  body,
  now = new Date(),
}: {
  token: string;
  method: string;
  headers: Record<string, string>;
  body: string;
  now?: Date;
}): Promise<InboxAnswer> {
  return db().transaction(async (tx) => {
    const inbox = await lockInboxByToken(tx, { token });
    if (!inbox)
      return {
        status: 404,
        headers: json,
        body: JSON.stringify({ error: "No such sandbox inbox." }),
        appId: null,
        stored: null,
      };
    const check = checkSignature({ headers, body, secrets: await secretsSigningNow(tx, { appId: inbox.appId, now }) });
    const stored = await insertInboxRequest(tx, {
      appId: inbox.appId,
      request: {
        receivedAt: now,
        method,
        headers,
        body,
        answerStatus: inbox.answerStatus,
        signatureValid: check.valid,
        signatureNote: check.note,
      },
    });
    return { ...answerFor(inbox.answerStatus, stored.id), appId: inbox.appId, stored };
  });
}
