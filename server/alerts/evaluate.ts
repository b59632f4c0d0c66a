import type { AlertKind } from "@/common/alerts/kinds";
import type { SetFacts } from "@/server/notifications/facts";
import { closedEpisode, stepEpisode, type Episode } from "./episodes";
import { describeAlert, evaluatedAtIngest, kindCondition, type Preference } from "./kinds";
import { inQuietHours, type QuietHours } from "./quiet-hours";

// The driver's alerts a vehicle's new data sets make, pure: for each kind the driver chose a
// channel for, the kind's condition (kinds.ts, the partner evaluation's own) on each set's facts,
// the same facts ingest read once for the subscriptions, through the kind's episode (episodes.ts).
// An alert in the quiet hours is made all the same, marked quiet: it is listed, and not sent.
// Place kinds are not evaluated while the driver pauses location (the sets then carry no position).

/** What ingest's read brings of the account's alert rules for one vehicle (ingest-queries.ts). */
export type AlertRules = {
  timeZone: string | null;
  quiet: QuietHours | null;
  preferences: Preference[];
  /** By episodeKey. */
  episodes: Map<string, Episode>;
};

export type PendingAlert = {
  /** Index of the data set in the input. */
  set: number;
  kind: AlertKind;
  at: Date;
  summary: string;
  details: Record<string, unknown>;
  quiet: boolean;
  email: boolean;
  browser: boolean;
};

export type AlertEvaluation = {
  alerts: PendingAlert[];
  /** Episodes to store, by episodeKey (only those that changed). */
  episodes: Map<string, Episode>;
};

const LOCATION_KINDS: ReadonlySet<AlertKind> = new Set(["PLACE_ENTERED", "PLACE_LEFT"]);

/** An episode's key: the kind, and the place for a place kind (0 for the others). */
const episodeKey = (kind: AlertKind, placeId = 0) => `${kind}:${placeId}`;

export function evaluateAlerts(
  rules: AlertRules,
  sets: { facts: SetFacts; late: boolean }[],
  vehicle: { running: boolean; locationPaused: boolean },
): AlertEvaluation {
  const alerts: PendingAlert[] = [];
  const episodes = new Map<string, Episode>();
  for (const preference of rules.preferences) {
    if (!(preference.email || preference.browser) || !evaluatedAtIngest(preference.kind)) continue;
    if (vehicle.locationPaused && LOCATION_KINDS.has(preference.kind)) continue;
    const key = episodeKey(preference.kind);
    // Like the subscriptions' IGNITIONSTATUS, a vehicle already running has its ignition episode open.
    let episode = rules.episodes.get(key) ?? closedEpisode(preference.kind === "IGNITION_ON" && vehicle.running);
    let changed = false;
    sets.forEach(({ facts, late }, i) => {
      // Late sets cannot reopen what newer sets already decided.
      if (late || facts.at.getTime() < episode.evaluatedAt.getTime()) return;
      const outcome = kindCondition(preference, facts, { timeZone: rules.timeZone, anchor: episode.anchor });
      const step = stepEpisode(episode, outcome.met, facts.at);
      const anchor = outcome.anchor !== undefined ? outcome.anchor : episode.anchor;
      if (step.episode !== episode || anchor !== episode.anchor) changed = true;
      episode = { ...step.episode, anchor };
      if (!step.alert) return;
      alerts.push({
        set: i,
        kind: preference.kind,
        at: facts.at,
        ...describeAlert(preference, facts),
        quiet: inQuietHours(facts.at, rules.quiet, rules.timeZone),
        email: preference.email,
        browser: preference.browser,
      });
    });
    if (changed) episodes.set(key, episode);
  }
  return { alerts, episodes };
}
