import { sql } from "drizzle-orm";
import { db } from "@/db/client";
import { ApiError, validationError } from "@/common/http/errors";
import type { EventType } from "@/common/subscriptions/event-types";
import { sessionHmac } from "@/server/platform/sessions/session-hmac";
import { grantAllows } from "@/server/delivery/grant-check";
import { env } from "@/server/platform/env";
import type { LocationPrecision } from "@/common/oauth/grant-scope";
import type { Principal } from "@/server/api-auth/principal";
import { decodeFeedCursor, encodeFeedCursor, type FeedPosition, type FeedScope } from "./feed-cursor";
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
      `The cursor is older than the ${env().EVENT_FEED_RETENTION_DAYS} days the feed keeps: restart with ` +
        `since=<DateTime> (the time up to which you have the events) instead of after.`,
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

/**
 * One page of the feed from `start`: the one statement both the page endpoint and the stream read
 * with. It returns the horizon and the page's whole notifications with the precision each is shown
 * at (precision.ts's rule, joined here: the grant is the table's primary key, so one row at most).
 */
export async function readFeedPage(
  principal: Principal,
  start: FeedStart,
  query: FeedFilters & { limit: number },
): Promise<FeedPage> {
  const { from, madeSince } = start;
  const rows = (await db().execute(sql`
    select h.horizon::text as horizon, e.*
      from (select pg_snapshot_xmin(pg_current_snapshot()) as horizon) h
      left join lateral (
        select n.id::text as id, coalesce(n.tx_id, '0'::xid8)::text as tx, n.subscription_id, n.app_id,
               n.account_id, n.vehicle_id, n.data_set_id::text as data_set_id, n.trip_id::text as trip_id,
               n.type, n.body, n.test, n.http_status_code, n.environment,
               (extract(epoch from n.event_at) * 1000)::float8 as event_at_ms,
               (extract(epoch from n.created_at) * 1000)::float8 as created_at_ms,
               case when n.account_id is null then 'precise' else coalesce(g.location_precision, 'none') end
                 as precision
          from notifications n
          left join account_grants g
            on g.account_id = n.account_id and g.app_id = n.app_id and g.revoked_at is null
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
     order by e.tx::xid8, e.id::bigint`)) as unknown as FeedRow[];

  const found = rows.filter((r): r is PageRow => r.id !== null);
  const now = new Date();
  const [scope, mac] = [scopeOf(principal), key()];
  const cursorAt = (position: FeedPosition) => encodeFeedCursor({ position, issuedAt: now, scope, key: mac });
  const events = found.map((r) => ({
    ...serializeEventBody(notificationOf(r), { precision: r.precision }),
    eventId: r.id,
    cursor: cursorAt({ tx: r.tx, id: Number(r.id) }),
  }));
  const last = found.at(-1);
  // An empty page moves the cursor up to the horizon: every transaction before it has ended, and
  // none of their events matched, so the next call need not look at them again.
  const horizon = rows[0]!.horizon;
  const next = last ? { tx: last.tx, id: Number(last.id) } : laterOf(from, { tx: horizon, id: 0 });
  return { events, next, horizon: BigInt(horizon), full: found.length >= query.limit };
}

// A page row as the statement returns it: bigints as text and times as epoch milliseconds, since the
// raw read does not go through drizzle's column mapping (which would read timestamptz as text).
type PageRow = {
  horizon: string;
  id: string;
  tx: string;
  subscription_id: number;
  app_id: number;
  account_id: number | null;
  vehicle_id: number | null;
  data_set_id: string | null;
  trip_id: string | null;
  type: string;
  body: unknown;
  test: boolean;
  http_status_code: number;
  environment: NotificationRow["environment"];
  event_at_ms: number;
  created_at_ms: number;
  precision: LocationPrecision;
};
/** The statement's one row when the page is empty: the horizon, and nulls for the event. */
type FeedRow = PageRow | ({ horizon: string } & { [K in Exclude<keyof PageRow, "horizon">]: null });

const notificationOf = (r: PageRow): NotificationRow => ({
  id: Number(r.id),
  environment: r.environment,
  subscriptionId: r.subscription_id,
  appId: r.app_id,
  accountId: r.account_id,
  vehicleId: r.vehicle_id,
  dataSetId: r.data_set_id === null ? null : Number(r.data_set_id),
  tripId: r.trip_id === null ? null : Number(r.trip_id),
  type: r.type,
  eventAt: new Date(r.event_at_ms),
  createdAt: new Date(r.created_at_ms),
  body: r.body,
  test: r.test,
  httpStatusCode: r.http_status_code,
  txId: r.tx,
});

const scopeOf = (principal: Principal): FeedScope => ({
  clientId: principal.clientId,
  environment: principal.environment,
});
const key = () => sessionHmac("event-feed-key");

const laterOf = (a: FeedPosition, b: FeedPosition): FeedPosition => {
  const [ta, tb] = [BigInt(a.tx), BigInt(b.tx)];
  return ta > tb || (ta === tb && a.id >= b.id) ? a : b;
};
