import { inArray, sql } from "drizzle-orm";
import { db } from "@/db/client";
import { databaseUnavailable } from "@/db/unavailable";
import { accessCounts, accounts, partnerApps, vehicles } from "@/db/schema";
import { ACCESS_CATEGORIES, CATEGORY_BIT, type AccessCategory } from "@/common/access/categories";
import { env } from "@/server/platform/env";
import { logger } from "@/server/platform/log";
import { accessLogState, addCounts, countKey, restorePending, takePending, type HourCount } from "./recorder";

// Writes what the accumulator (recorder.ts) noted: one INSERT … ON CONFLICT DO UPDATE SET count =
// count + excluded.count per flush (in chunks past 1,000 rows), every ACCESS_LOG_FLUSH_SECONDS and
// on a clean stop. Answers that named vehicles only are first resolved to their accounts with one
// read. What a crash loses: the counts noted since the last flush (docs/decisions/0110-access-log-counters.md).

const CHUNK = 1000;
const categoryOfBit = new Map(ACCESS_CATEGORIES.map((c) => [CATEGORY_BIT[c], c] as [number, AccessCategory]));

/** Starts the periodic flush in this process, once (an unref'd timer: it keeps nothing alive). */
export function ensureFlushing(): void {
  const state = accessLogState();
  if (state.timer) return;
  state.timer = setInterval(() => void flushAccessLog().catch(() => {}), env().ACCESS_LOG_FLUSH_SECONDS * 1000);
  state.timer.unref();
}

/** Writes everything noted so far; a flush already running is waited for, then this one runs. */
export async function flushAccessLog(): Promise<void> {
  const state = accessLogState();
  while (state.flushing) await state.flushing.catch(() => {});
  const flushing = writePending().finally(() => (state.flushing = null));
  state.flushing = flushing;
  return flushing;
}

async function writePending(): Promise<void> {
  const { counts, unresolved } = takePending();
  let resolved = false;
  try {
    if (unresolved.length > 0) await resolveVehicles(counts, unresolved);
    resolved = true;
    if (counts.size === 0) return;
    await upsert(counts);
  } catch (error) {
    // The database out of reach: what was taken and not written waits for the next flush.
    restorePending(counts, resolved ? [] : unresolved);
    // An outage is one line without a stack, as every request's (server/http/refusal.ts).
    const outage = databaseUnavailable(error);
    logger.warn(
      outage ? { cause: outage, rows: counts.size } : { err: error, rows: counts.size },
      "access log flush failed; kept for the next one",
    );
    throw error;
  }
}

async function resolveVehicles(counts: Map<string, HourCount>, answers: ReturnType<typeof takePending>["unresolved"]) {
  const ids = [...new Set(answers.flatMap((a) => [...a.byVehicle.keys()]))];
  const owners = new Map<number, number>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await db()
      .select({ id: vehicles.id, accountId: vehicles.accountId })
      .from(vehicles)
      .where(inArray(vehicles.id, ids.slice(i, i + CHUNK)));
    for (const r of rows) owners.set(r.id, r.accountId);
  }
  for (const answer of answers) {
    // Once per account per answer, whether its items named the account or its vehicles.
    const byAccount = new Map(answer.byAccount);
    for (const [vehicleId, mask] of answer.byVehicle) {
      const accountId = owners.get(vehicleId);
      // A vehicle deleted since: nobody's data to count any more.
      if (accountId !== undefined) byAccount.set(accountId, (byAccount.get(accountId) ?? 0) | mask);
    }
    for (const [accountId, mask] of byAccount) addCounts(counts, answer.appId, accountId, mask, answer.at);
  }
}

/** Writes `counts`, taking each chunk out of it once written (what is left was not). */
async function upsert(counts: Map<string, HourCount>): Promise<void> {
  const rows = [...counts.values()];
  // One order for every process: two flushes at once then lock the rows they share in the same
  // order and cannot deadlock.
  rows.sort((a, b) => a.accountId - b.accountId || a.appId - b.appId || a.bit - b.bit || a.hour - b.hour);
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    try {
      await insertChunk(chunk);
    } catch (error) {
      if (!foreignKeyViolation(error)) throw error;
      // An account or app deleted since its answer: its counts go with it.
      await insertChunk(await stillExisting(chunk));
    }
    for (const row of chunk) counts.delete(countKey(row));
  }
}

async function insertChunk(rows: HourCount[]): Promise<void> {
  if (rows.length === 0) return;
  await db()
    .insert(accessCounts)
    .values(
      rows.map((r) => ({
        accountId: r.accountId,
        appId: r.appId,
        category: categoryOfBit.get(r.bit)!,
        hour: new Date(r.hour),
        count: r.count,
        lastAt: new Date(r.last),
      })),
    )
    .onConflictDoUpdate({
      target: [accessCounts.accountId, accessCounts.appId, accessCounts.category, accessCounts.hour],
      set: {
        count: sql`${accessCounts.count} + excluded.count`,
        lastAt: sql`greatest(${accessCounts.lastAt}, excluded.last_at)`,
      },
    });
}

async function stillExisting(rows: HourCount[]): Promise<HourCount[]> {
  const accountIds = [...new Set(rows.map((r) => r.accountId))];
  const appIds = [...new Set(rows.map((r) => r.appId))];
  const [liveAccounts, liveApps] = await Promise.all([
    db().select({ id: accounts.id }).from(accounts).where(inArray(accounts.id, accountIds)),
    db().select({ id: partnerApps.id }).from(partnerApps).where(inArray(partnerApps.id, appIds)),
  ]);
  const a = new Set(liveAccounts.map((r) => r.id));
  const p = new Set(liveApps.map((r) => r.id));
  return rows.filter((r) => a.has(r.accountId) && p.has(r.appId));
}

function foreignKeyViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    if ((current as { code?: string }).code === "23503") return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
