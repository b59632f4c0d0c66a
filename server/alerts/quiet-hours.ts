import { localClock } from "@/server/notifications/facts";

// Quiet hours: a daily window of local clock times in the account's time zone (UTC when it has
// none), from `from` up to but not including `to`; a window whose end comes before its start runs
// over midnight (22:00–07:00). The clock is read for the instant in that zone, so a daylight-saving
// change moves the window with the local clock, as a driver expects of "quiet from 22:00".

export type QuietHours = { from: string; to: string };

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

export function inQuietHours(at: Date, quiet: QuietHours | null, timeZone: string | null): boolean {
  if (!quiet) return false;
  const from = minutesOf(quiet.from);
  const to = minutesOf(quiet.to);
  if (from === to) return false;
  const { minutes } = localClock(at, timeZone);
  return from < to ? minutes >= from && minutes < to : minutes >= from || minutes < to;
}
