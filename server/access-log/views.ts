import { ACCESS_CATEGORIES, type AccessCategory } from "@/common/access/categories";
import { csvLine } from "./csv";
import { accessByDayOfAccount, accessByDayOfApp, accessHoursOfAccount, accessTotalsOfAccount } from "./queries";
import type { Environment } from "@/db/schema";
import { shareViewsOfAccount } from "@/server/sharing/service";

// What the driver site's "Data access" page, its CSV and the console's access tab show: the last
// DAYS days (docs/driver-site.md#data-access), by UTC day.

export const ACCESS_DAYS = 90;

export type DayRow = { day: string } & Record<AccessCategory, number>;
export type AppAccess = {
  appId: number;
  name: string;
  categories: { category: AccessCategory; count: number; lastAt: string }[];
};

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** How a view of a shared location is named in the access log. */
const SHARED_LINK = "shared link";

function windowStart(now: Date): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (ACCESS_DAYS - 1) * DAY_MS);
}

/** Every day of the window, the days without access at zero, so the chart's axis is time. */
function fillDays(since: Date, rows: { day: string; category: string; count: number }[]): DayRow[] {
  const byDay = new Map<string, DayRow>();
  for (let t = since.getTime(), i = 0; i < ACCESS_DAYS; i++, t += DAY_MS) {
    const day = new Date(t).toISOString().slice(0, 10);
    byDay.set(day, { day, location: 0, vehicle_data: 0, identity: 0, events: 0 });
  }
  for (const r of rows) {
    const d = byDay.get(r.day);
    if (d) d[r.category as AccessCategory] += r.count;
  }
  return [...byDay.values()];
}

/** The shared-link lines the page lists (the CSV has every one). */
const SHARED_LINES_SHOWN = 100;

export async function accessOfAccount(accountId: number, now = new Date()) {
  const since = windowStart(now);
  const [totals, days, sharedViews] = await Promise.all([
    accessTotalsOfAccount({ accountId, since }),
    accessByDayOfAccount({ accountId, since }),
    shareViewsOfAccount(accountId, since),
  ]);
  const apps = new Map<number, AppAccess>();
  for (const t of totals) {
    const app = apps.get(t.appId) ?? { appId: t.appId, name: t.appName, categories: [] };
    app.categories.push({ category: t.category, count: t.count, lastAt: new Date(t.lastAt).toISOString() });
    apps.set(t.appId, app);
  }
  for (const app of apps.values())
    app.categories.sort((a, b) => ACCESS_CATEGORIES.indexOf(a.category) - ACCESS_CATEGORIES.indexOf(b.category));
  return {
    since: since.toISOString(),
    apps: [...apps.values()],
    days: fillDays(since, days),
    // Each opening of a shared location's page is a line of its own: who opened it is not known.
    shared: { total: sharedViews.length, lines: sharedViews.slice(0, SHARED_LINES_SHOWN) },
  };
}

const ACCESS_CSV_HEADER = ["app_id", "app", "category", "hour_utc", "count", "last_access_utc"];

/**
 * The access log of the account as CSV: one line per app, category and hour, newest first, then one
 * line per view of a shared location (app "shared link", no app id, count 1).
 */
export async function accessCsvOfAccount(accountId: number, now = new Date()): Promise<string> {
  const since = windowStart(now);
  const [rows, sharedViews] = await Promise.all([
    accessHoursOfAccount({ accountId, since }),
    shareViewsOfAccount(accountId, since),
  ]);
  const hourOf = (at: string) => new Date(Math.floor(Date.parse(at) / HOUR_MS) * HOUR_MS).toISOString();
  return (
    csvLine(ACCESS_CSV_HEADER) +
    rows
      .map((r) =>
        csvLine([r.appId, r.appName, r.category, r.hour.toISOString(), r.count, new Date(r.lastAt).toISOString()]),
      )
      .join("") +
    sharedViews.map((v) => csvLine(["", SHARED_LINK, "location", hourOf(v.viewedAt), 1, v.viewedAt])).join("")
  );
}

/** An app's own counts (the console): per day and category, in one environment. */
export async function accessOfApp(appId: number, environment: Environment, now = new Date()) {
  const since = windowStart(now);
  const rows = await accessByDayOfApp({ appId, environment, since });
  const totals = Object.fromEntries(ACCESS_CATEGORIES.map((c) => [c, 0])) as Record<AccessCategory, number>;
  for (const r of rows) totals[r.category] += r.count;
  return { since: since.toISOString(), totals, days: fillDays(since, rows) };
}
