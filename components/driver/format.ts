// Times and figures as the driver site shows them, in the account's time zone (UTC when the
// account has none). Used by server pages and client components alike.

export const zoneOf = (timeZone: string | null | undefined) => timeZone || "UTC";

export function formatWhen(iso: string | null, timeZone: string, style: "full" | "time" = "full"): string {
  if (!iso) return "never";
  const options: Intl.DateTimeFormatOptions =
    style === "time"
      ? { hour: "numeric", minute: "2-digit", second: "2-digit", timeZone, timeZoneName: "short" }
      : {
          year: "numeric",
          month: "short",
          day: "numeric",
          hour: "numeric",
          minute: "2-digit",
          timeZone,
          timeZoneName: "short",
        };
  return new Intl.DateTimeFormat("en-US", options).format(new Date(iso));
}

/** "3 min ago", "2 h ago", "5 days ago", or "just now"; `now` is passed so lists agree. */
export function formatAgo(iso: string | null, now: number): string {
  if (!iso) return "never";
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 45) return "just now";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}

export function formatDuration(ms: number): string {
  const total = Math.round(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h} h ${String(m).padStart(2, "0")} min`;
  if (m > 0) return `${m} min ${String(s).padStart(2, "0")} s`;
  return `${s} s`;
}

export const formatMiles = (miles: number | null) =>
  miles === null ? "—" : `${miles.toLocaleString("en-US", { maximumFractionDigits: 1 })} mi`;
export const formatMph = (mph: number | null) =>
  mph === null ? "—" : `${mph.toLocaleString("en-US", { maximumFractionDigits: 1 })} mph`;

/**
 * "Home → Work": the driver's places a trip starts and ends in; an end in none of them reads
 * "elsewhere", and a trip still under way ends in "…".
 */
export function formatTripEnds(ends: { from: string | null; to: string | null }, inProgress = false): string {
  return `${ends.from ?? "elsewhere"} → ${inProgress ? "…" : (ends.to ?? "elsewhere")}`;
}
