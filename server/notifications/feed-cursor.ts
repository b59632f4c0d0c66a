import { createHmac, timingSafeEqual } from "node:crypto";

// The event feed's cursor (docs/event-feed.md#the-cursor): opaque to clients, made of
//   version "1" . base64url("<tx>.<id>.<issued ms>") . HMAC-SHA256(key, scope + payload)
// where (tx, id) is the position in the feed's (transaction id, notification id) order and issued
// is when the server handed it out, for the retention horizon. The MAC covers the app's client id
// and the environment, so a cursor of another app or environment fails like a malformed one and
// tells nothing about where that app is. Pure: the key and the scope are passed in.

export type FeedPosition = { tx: string; id: number };
export type FeedScope = { clientId: string; environment: string };

const VERSION = "1";
const DIGITS = /^\d{1,20}$/;

const mac = (key: string, scope: FeedScope, payload: string) =>
  createHmac("sha256", key)
    .update(["event-feed", VERSION, scope.clientId, scope.environment, payload].join("\n"))
    .digest("base64url");

export function encodeFeedCursor({
  position,
  issuedAt,
  scope,
  key,
}: {
  position: FeedPosition;
  issuedAt: Date;
  scope: FeedScope;
  key: string;
}): string {
  const payload = Buffer.from(`${position.tx}.${position.id}.${issuedAt.getTime()}`).toString("base64url");
  return `${VERSION}.${payload}.${mac(key, scope, payload)}`;
}

/** The cursor's position and issue time, or null when it is malformed or not this app's and environment's. */
export function decodeFeedCursor({
  cursor,
  scope,
  key,
}: {
  cursor: string;
  scope: FeedScope;
  key: string;
}): { position: FeedPosition; issuedAt: Date } | null {
  const [version, payload, given, ...rest] = cursor.split(".");
  if (version !== VERSION || !payload || !given || rest.length > 0) return null;
  const expected = Buffer.from(mac(key, scope, payload));
  const presented = Buffer.from(given);
  if (expected.length !== presented.length || !timingSafeEqual(expected, presented)) return null;
  const [tx, id, issued, ...more] = Buffer.from(payload, "base64url").toString("utf8").split(".");
  if (more.length > 0 || !tx || !id || !issued || ![tx, id, issued].every((part) => DIGITS.test(part))) return null;
  const position = { tx, id: Number(id) };
  if (!Number.isSafeInteger(position.id)) return null;
  return { position, issuedAt: new Date(Number(issued)) };
}
