import type { Anchor } from "@/server/notifications/conditions";

// One alert per episode (docs/alerts.md#one-alert-per-episode): a condition that flaps (a speed
// around the limit, a place left and re-entered) alerts once, until it has been clear for two
// minutes. Pure, with time taken from the data sets (event time), never from a clock:
// - the first data set that triggers opens the episode, and that set alerts;
// - a set that does not trigger starts the clear time (clearSince) if it has not started;
// - a later set that does not trigger, two minutes or more after clearSince, closes the episode;
// - a set that triggers while the clear time runs: under two minutes it is the same episode (no
//   alert, clearSince forgotten); at two minutes or more, the condition was last seen clear for
//   that long, so the episode is over and this set opens a new one (it alerts);
// - a set that cannot say (met null: no speed in it) changes nothing.
// docs/decisions/0149-alert-episodes.md says why clear is observed this way.

const CLEAR_MS = 2 * 60_000;

export type Episode = {
  open: boolean;
  openedAt: Date | null;
  clearSince: Date | null;
  /** The newest data set applied: an older one cannot change the episode. */
  evaluatedAt: Date;
  anchor: Anchor;
};

export const closedEpisode = (open = false): Episode => ({
  open,
  openedAt: null,
  clearSince: null,
  evaluatedAt: new Date(0),
  anchor: null,
});

export function stepEpisode(episode: Episode, met: boolean | null, at: Date): { episode: Episode; alert: boolean } {
  if (met === null) return { episode, alert: false };
  const clearFor = episode.clearSince ? at.getTime() - episode.clearSince.getTime() : 0;
  if (met) {
    if (!episode.open || clearFor >= CLEAR_MS)
      return { episode: { ...episode, open: true, openedAt: at, clearSince: null, evaluatedAt: at }, alert: true };
    return { episode: { ...episode, clearSince: null, evaluatedAt: at }, alert: false };
  }
  if (!episode.open) return { episode: { ...episode, evaluatedAt: at }, alert: false };
  if (episode.clearSince === null) return { episode: { ...episode, clearSince: at, evaluatedAt: at }, alert: false };
  if (clearFor >= CLEAR_MS)
    return { episode: { ...episode, open: false, clearSince: null, evaluatedAt: at }, alert: false };
  return { episode: { ...episode, evaluatedAt: at }, alert: false };
}
