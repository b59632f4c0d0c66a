import { sql } from "drizzle-orm";
import { db } from "@/db/client";
import { listenForNotifies } from "@/server/platform/fleet/notify-listener";

// Sessions are signed cookies (JWT), so a sign-out changes nothing on the server: next-auth's
// signOut event announces it here (NOTIFY wayline_session_ends with the session's random sid), and
// every process closes the streams it holds for that session. The sid is random per sign-in and
// says nothing about the account.

const CHANNEL = "wayline_session_ends";

/** Tells every process that the session `sid` ended (a sign-out). */
export async function announceSessionEnd(sid: string): Promise<void> {
  await db().execute(sql`select pg_notify(${CHANNEL}, ${sid})`);
}

/** Calls `ended` when the session `sid` signs out, in any process. */
export function onSessionEnd(sid: string, ended: () => void): Promise<() => void> {
  return listenForNotifies(CHANNEL, {
    onNotify: (payload) => {
      if (payload === sid) ended();
    },
  });
}
