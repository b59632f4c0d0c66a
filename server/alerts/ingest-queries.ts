import { epochMs as ms, type Fragment, type Sql } from "@/db/fragments";
import { ALERT_KINDS, SPEED_UNITS, type AlertKind, type SpeedUnit } from "@/common/alerts/kinds";
import type { Episode } from "./episodes";
import type { AlertRules, PendingAlert } from "./evaluate";

// The driver's alerts as pieces of ingest's own two statements (server/telemetry/ingest/read.ts and
// write.ts), as the subscriptions' are (server/notifications/ingest-queries.ts): the account's
// preferences, quiet hours and the vehicle's episodes are read with the vehicle, and the alerts,
// their deliveries (the worker's queue: the enqueue trigger wakes it) and the episodes are written
// by the statement that writes the data sets that caused them, so an alert is never lost or made twice.

/**
 * A column of the read, for the vehicle `v`: null when the account chose no channel for any kind
 * (the usual case, which costs one index probe); else its rules as one JSON document.
 */
export const alertRulesColumn = (sql: Sql): Fragment => sql`(
  select case when exists (select 1 from alert_preferences p where p.account_id = v.account_id and (p.email or p.browser)) then json_build_object(
    'zone', (select a.time_zone from accounts a where a.id = v.account_id),
    'quiet', (select json_build_array(s.quiet_from, s.quiet_to) from alert_settings s where s.account_id = v.account_id and s.quiet_from is not null),
    'preferences', (select json_agg(json_build_array(p.kind, p.email, p.browser, p.threshold, p.unit) order by p.kind)
                      from alert_preferences p where p.account_id = v.account_id and (p.email or p.browser)),
    'episodes', (select json_agg(json_build_array(e.kind, e.place_id, e.open, ${ms(sql, sql`e.opened_at`)}, ${ms(sql, sql`e.clear_since`)},
                                                  ${ms(sql, sql`e.evaluated_at`)}, e.anchor_latitude, e.anchor_longitude))
                   from alert_episodes e where e.account_id = v.account_id and e.vehicle_id = v.id)) end)`;

/**
 * For the vehicle `v`: its account's alert preferences and quiet hours, each at its row's version, as
 * text. A write without a read of its own (recent-reads.ts) checks that it is unchanged, as it checks
 * the subscriptions; the episodes are written by ingest alone, which changes the vehicle's version.
 */
export const alertRulesVersion = (sql: Sql): Fragment => sql`(
  (select coalesce(string_agg(p.kind || '.' || p.xmin::text, ',' order by p.kind), '') from alert_preferences p where p.account_id = v.account_id)
  || '/' || coalesce((select s.xmin::text from alert_settings s where s.account_id = v.account_id), ''))`;

type RulesDocument = {
  zone: string | null;
  quiet: [string, string] | null;
  preferences: [string, boolean, boolean, number | null, string | null][] | null;
  episodes: [string, number, boolean, number | null, number | null, number, number | null, number | null][] | null;
};

const isKind = (kind: string): kind is AlertKind => (ALERT_KINDS as readonly string[]).includes(kind);
const date = (value: number | null) => (value === null ? null : new Date(value));

export function toAlertRules(document: RulesDocument | null): AlertRules | null {
  if (!document) return null;
  return {
    timeZone: document.zone,
    quiet: document.quiet && { from: document.quiet[0], to: document.quiet[1] },
    preferences: (document.preferences ?? []).flatMap(([kind, email, browser, threshold, unit]) =>
      isKind(kind)
        ? [
            {
              kind,
              email,
              browser,
              threshold: threshold === null ? null : Number(threshold),
              unit: (SPEED_UNITS as readonly string[]).includes(unit ?? "") ? (unit as SpeedUnit) : null,
            },
          ]
        : [],
    ),
    episodes: new Map(
      (document.episodes ?? []).map(([kind, place, open, openedAt, clearSince, evaluatedAt, lat, lon]) => [
        `${kind}:${place}`,
        {
          open,
          openedAt: date(openedAt),
          clearSince: date(clearSince),
          evaluatedAt: new Date(evaluatedAt),
          anchor: lat === null || lon === null ? null : { latitude: Number(lat), longitude: Number(lon) },
        },
      ]),
    ),
  };
}

/** What one vehicle's ingest writes of the driver's alerts. */
export type AlertWrite = {
  vehicleId: number;
  accountId: number;
  alerts: PendingAlert[];
  /** The number (sets_in.ord) of the vehicle's first data set in the statement. */
  firstSet: number;
  episodes: Map<string, Episode>;
};

/**
 * CTEs of the write statement, for one or more vehicles; like notificationWrites they write nothing
 * for a vehicle that the CTE `cas` does not hold: the alerts (at their data set's time), one delivery
 * per chosen channel (PENDING, or SKIPPED in the quiet hours), and the episodes.
 */
export function alertWrites(sql: Sql, writes: AlertWrite[]): Fragment[] {
  const ctes: Fragment[] = [];
  const list = writes.flatMap((w) => w.alerts.map((a) => ({ a, w })));
  if (list.length > 0) {
    ctes.push(
      sql`au as (select u.*, b.details from unnest(${list.map((x) => x.w.vehicleId)}::int[], ${list.map((x) => x.w.accountId)}::int[],
                                         ${list.map((x) => x.a.kind)}::text[], ${list.map((x) => x.a.at.toISOString())}::timestamptz[],
                                         ${list.map((x) => x.a.summary)}::text[], ${list.map((x) => x.a.quiet)}::boolean[],
                                         ${list.map((x) => x.a.email)}::boolean[], ${list.map((x) => x.a.browser)}::boolean[])
                with ordinality as u(vehicle, account, kind, at, summary, quiet, email, browser, ord)
                join jsonb_array_elements(${JSON.stringify(list.map((x) => x.a.details))}::jsonb) with ordinality as b(details, ord) on b.ord = u.ord)`,
      sql`al as (insert into alerts (account_id, vehicle_id, kind, at, summary, details, quiet)
              select au.account, au.vehicle, au.kind, au.at, au.summary, au.details, au.quiet from au
               where au.vehicle in (select id from cas) order by au.ord
             returning id, vehicle_id, kind, at)`,
      // One alert per vehicle, kind and time: a vehicle has one data set a time, and a kind alerts once a set.
      sql`ad as (insert into alert_deliveries (alert_id, channel, status, reason, decided_at)
              select al.id, c.channel, case when au.quiet then 'SKIPPED' else 'PENDING' end,
                     case when au.quiet then 'quiet hours' end, case when au.quiet then now() end
                from al join au on au.vehicle = al.vehicle_id and au.kind = al.kind and au.at = al.at
                cross join lateral (values ('email', au.email), ('browser', au.browser)) as c(channel, chosen)
               where c.chosen)`,
    );
  }
  const episodes = writes.flatMap((w) =>
    [...w.episodes].map(([key, episode]) => {
      const [kind, place] = key.split(":");
      return { w, kind: kind!, place: Number(place), episode };
    }),
  );
  if (episodes.length > 0) {
    const iso = (d: Date | null) => (d ? d.toISOString() : null);
    ctes.push(
      sql`ae as (insert into alert_episodes (account_id, vehicle_id, kind, place_id, open, opened_at, clear_since, evaluated_at,
                                          anchor_latitude, anchor_longitude)
              select e.account, e.vehicle, e.kind, e.place, e.open, e.opened_at, e.clear_since, e.evaluated_at, e.lat, e.lon
                from unnest(${episodes.map((e) => e.w.accountId)}::int[], ${episodes.map((e) => e.w.vehicleId)}::int[],
                            ${episodes.map((e) => e.kind)}::text[], ${episodes.map((e) => e.place)}::int[],
                            ${episodes.map((e) => e.episode.open)}::boolean[], ${episodes.map((e) => iso(e.episode.openedAt))}::timestamptz[],
                            ${episodes.map((e) => iso(e.episode.clearSince))}::timestamptz[], ${episodes.map((e) => iso(e.episode.evaluatedAt))}::timestamptz[],
                            ${episodes.map((e) => e.episode.anchor?.latitude ?? null)}::float8[],
                            ${episodes.map((e) => e.episode.anchor?.longitude ?? null)}::float8[])
                     as e(account, vehicle, kind, place, open, opened_at, clear_since, evaluated_at, lat, lon)
               where e.vehicle in (select id from cas)
              on conflict (account_id, vehicle_id, kind, place_id) do update set open = excluded.open, opened_at = excluded.opened_at,
                clear_since = excluded.clear_since, evaluated_at = excluded.evaluated_at,
                anchor_latitude = excluded.anchor_latitude, anchor_longitude = excluded.anchor_longitude)`,
    );
  }
  return ctes;
}
