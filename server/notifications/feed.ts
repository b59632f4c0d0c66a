import { inArray, sql } from "drizzle-orm";
import { db } from "@/db/client";
import { notifications } from "@/db/schema";
import { ApiError, validationError } from "@/common/http/errors";
import type { EventType } from "@/common/subscriptions/event-types";
import { sessionHmac } from "@/server/platform/sessions/session-hmac";
import { grantAllows } from "@/server/delivery/grant-check";
import { env } from "@/server/platform/env";
import type { Principal } from "@/server/api-auth/principal";
import { decodeFeedCursor, encodeFeedCursor, type FeedPosition, type FeedScope } from "./feed-cursor";
import { precisionsOf } from "./precision";
import { serializeEventBody, type NotificationRow } from "./serialize";

// GET /eventFeed/ (docs/event-feed.md): the calling app's events in commit order, paged by cursor.
//
// Order is (transaction id, notification id), and a page holds only events whose transaction is
// older than every transaction still running (pg_snapshot_xmin of the statement's snapshot): ids
// and transaction ids are drawn before commit, so a transaction that started earlier may commit
// later; it is then still running, its events wait behind the horizon, and the cursor never passes
// them. The pattern of GET /account/data?sinceLastCall (server/telemetry/account-data.ts).
//
// An account that revoked the app takes its events out of the feed, as out of the app's
// notification reads (a client-credentials token outlives the revocation); what tells the app of
// it (AUTHORIZATIONSTATUS, ACCESSREVOKED, ACCOUNTDELETED) stays: the deliveries' rule, grantAllows.

export type FeedQuery = { after?: string; since?: Date; limit: number; eventType?: EventType; vehicleId?: number };
export type FeedFilters = Pick<FeedQuery, "eventType" | "vehicleId">;

/** Where a reader starts: after a position, or (without a cursor) at the events made since a time. */
export type FeedStart = { from: FeedPosition; madeSince: Date | null };

type FeedRow = { horizon: string; id: string | null; tx: string | null };

const ZERO: FeedPosition = { tx: "0", id: 0 };

export async function readEventFeed(principal: Principal, query: FeedQuery) {
  const start = feedStart(principal, query);
  const page = await readFeedPage(principal, start, query);
  return { events: page.events, nextCursor: feedCursor(principal, page.next) };
}

/**
 * Where `after` (a cursor) or `since` starts the feed; throws 400 INVALID for a cursor that is
 * malformed or another app's or environment's, and 410 CURSOR_EXPIRED for one past the retention.
 */
export function feedStart(principal: Principal, query: { after?: string; since?: Date }): FeedStart {
  const horizonTime = new Date(Date.now() - env().EVENT_FEED_RETENTION_DAYS * 86_400_000);
  const after =
    query.after === undefined ? null : decodeFeedCursor({ cursor: query.after, scope: scopeOf(principal), key: key() });
  if (query.after !== undefined && !after) {
    throw validationError(
      [{ fieldName: "after", errorCode: "INVALID", errorDisplay: "Not a cursor of this feed." }],
      "The cursor is not valid here.",
    );
  }
  if (after && after.issuedAt < horizonTime) {
    throw new ApiError(
      "CURSOR_EXPIRED",
      `The cursor is older than the ${env().EVENT_FEED_RETENTION_DAYS} days the feed keeps: restart with since=<DateTime> (the time up to which you have the events) instead of after.`,
    );
  }
  // Without a cursor: from `since`, or the oldest event kept.
  if (after) return { from: after.position, madeSince: null };
  return { from: ZERO, madeSince: query.since && query.since > horizonTime ? query.since : horizonTime };
}

/** A cursor of this app and environment at `position`, issued now. */
function feedCursor(principal: Principal, position: FeedPosition): string {
  return encodeFeedCursor({ position, issuedAt: new Date(), scope: scopeOf(principal), key: key() });
}

export type FeedPage = {
  /** The events, each with its cursor. */
  events: (ReturnType<typeof serializeEventBody> & { eventId: string; cursor: string })[];
  /** Where the next read starts (nextCursor). */
  next: FeedPosition;
  /** The statement's horizon: events of transactions from this id on were not yet handed out. */
  horizon: bigint;
  /** Whether the page was cut at `limit` (more events may be waiting). */
  full: boolean;
};

/** One page of the feed from `start`: the one query both the page endpoint and the stream read with. */
export async function readFeedPage(
  principal: Principal,
  start: FeedStart,
  query: FeedFilters & { limit: number },
): Promise<FeedPage> {
  const { from, madeSince } = start;
  const rows = (await db().execute(sql`
    select h.horizon::text as horizon, e.id::text as id, e.tx::text as tx
      from (select pg_snapshot_xmin(pg_current_snapshot()) as horizon) h
      left join lateral (
        select n.id, coalesce(n.tx_id, '0'::xid8) as tx
          from notifications n
         where n.app_id = ${principal.appId} and n.environment = ${principal.environment} and not n.test
           and coalesce(n.tx_id, '0'::xid8) < h.horizon
           and (coalesce(n.tx_id, '0'::xid8), n.id) > (${from.tx}::xid8, ${from.id}::bigint)
           and ${grantAllows(sql)}
           ${principal.kind === "user" ? sql`and n.account_id = ${principal.accountId}` : sql``}
           ${query.eventType ? sql`and n.type = ${query.eventType}` : sql``}
           ${query.vehicleId !== undefined ? sql`and n.vehicle_id = ${query.vehicleId}` : sql``}
           ${madeSince ? sql`and n.created_at >= ${madeSince.toISOString()}::timestamptz` : sql``}
         order by coalesce(n.tx_id, '0'::xid8), n.id
         limit ${query.limit}
      ) e on true
     order by e.tx, e.id`)) as unknown as FeedRow[];

  const found = rows.filter((r): r is FeedRow & { id: string; tx: string } => r.id !== null);
  const byId = await loadRows(found.map((r) => Number(r.id)));
  const precisionOf = await precisionsOf([...byId.values()]);
  const now = new Date();
  const [scope, mac] = [scopeOf(principal), key()];
  const cursorAt = (position: FeedPosition) => encodeFeedCursor({ position, issuedAt: now, scope, key: mac });
  const events = found.flatMap((r) => {
    const row = byId.get(Number(r.id));
    // Gone since the statement above (its subscription was deleted): nothing to hand out.
    if (!row) return [];
    return [
      {
        ...serializeEventBody(row, { precision: precisionOf(row) }),
        eventId: String(row.id),
        cursor: cursorAt({ tx: r.tx, id: Number(r.id) }),
      },
    ];
  });
  const last = found.at(-1);
  // An empty page moves the cursor up to the horizon: every transaction before it has ended, and
  // none of their events matched, so the next call need not look at them again.
  const horizon = rows[0]!.horizon;
  const next = last ? { tx: last.tx, id: Number(last.id) } : laterOf(from, { tx: horizon, id: 0 });
  return { events, next, horizon: BigInt(horizon), full: found.length >= query.limit };
}

const scopeOf = (principal: Principal): FeedScope => ({
  clientId: principal.clientId,
  environment: principal.environment,
});
const key = () => sessionHmac("event-feed-key");

async function loadRows(ids: number[]): Promise<Map<number, NotificationRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db().select().from(notifications).where(inArray(notifications.id, ids));
  return new Map(rows.map((r) => [r.id, r]));
}

const laterOf = (a: FeedPosition, b: FeedPosition): FeedPosition => {
  const [ta, tb] = [BigInt(a.tx), BigInt(b.tx)];
  return ta > tb || (ta === tb && a.id >= b.id) ? a : b;
};
