import { formatDateTime } from "@/common/http/datetime";
import type { StoredCriteria } from "@/server/subscriptions/criteria";
import { typeInfo, type EventType, type NotificationPeriod } from "@/common/subscriptions/event-types";
import { evaluateCondition, recordedValues, type Anchor } from "./conditions";
import type { SetFacts } from "./facts";

// Which notifications a vehicle's new data sets produce, as a pure function of the live
// subscriptions, their recorded state and the sets in timestamp order (docs/subscriptions.md):
// - CONTINUOUS fires on every set that meets the criteria;
// - STATECHANGE when they become met and when they stop being met, with the recorded state;
// - INITIALSTATE when they become met, and re-arms once they stop;
// - ONETIME the first time they are met (the caller deletes the subscription);
// then minimumTime (minutes, per vehicle, in event time) drops any that come too soon.
// A state starts "not met" (IGNITIONSTATUS starts from the vehicle's ignition), so a first set
// that meets the criteria fires. Late sets (older than the vehicle's newest) cannot change a
// state that newer sets already decided: they only fire events, and never under a minimumTime.
// A momentary event (a harsh brake) is "met" by the sets that carry it: under CONTINUOUS and
// ONETIME it is a plain event, under STATECHANGE and INITIALSTATE its edges are kept like a
// state's, so late sets, whose place among the edges is gone, fire nothing there.

export type LiveSubscription = {
  id: number;
  appId: number;
  clientId: string;
  type: EventType;
  period: NotificationPeriod;
  minimumTime: number;
  criteria: StoredCriteria;
  timeZone: string | null;
  state: SubscriptionState | null;
};

export type SubscriptionState = { met: boolean; evaluatedAt: Date; notifiedAt: Date | null; anchor: Anchor };

export type EvaluatedSet = { facts: SetFacts; late: boolean };

export type PendingNotification = {
  subscriptionId: number;
  appId: number;
  /** Index of the data set in the input. */
  set: number;
  type: EventType;
  at: Date;
  onetime: boolean;
  body: Record<string, unknown>;
};

export type Evaluation = {
  notifications: PendingNotification[];
  /** States to store, by subscription id (only those that changed). */
  states: Map<number, SubscriptionState>;
};

export function evaluateSubscriptions(
  subscriptions: LiveSubscription[],
  sets: EvaluatedSet[],
  vehicle: { running: boolean },
): Evaluation {
  const notifications: PendingNotification[] = [];
  const states = new Map<number, SubscriptionState>();

  for (const sub of subscriptions) {
    const info = typeInfo(sub.type);
    let state: SubscriptionState = sub.state ?? {
      met: sub.type === "IGNITIONSTATUS" ? vehicle.running : false,
      evaluatedAt: new Date(0),
      notifiedAt: null,
      anchor: null,
    };
    let changed = false;
    const minimumMs = sub.minimumTime * 60_000;
    const edges =
      info.kind === "state" ||
      (info.kind === "momentary" && (sub.period === "STATECHANGE" || sub.period === "INITIALSTATE"));
    // Plain events without a minimumTime need no memory: no state row is written for them. A row
    // left by an earlier period is kept current, so that switching back finds the true last edge.
    const keepsState = edges || minimumMs > 0 || sub.type === "VEHICLETOWED" || sub.state !== null;

    for (let i = 0; i < sets.length; i++) {
      const { facts, late } = sets[i]!;
      const stale = late || facts.at.getTime() < state.evaluatedAt.getTime();
      if (stale && edges) continue;
      const outcome = evaluateCondition(sub.type, sub.criteria, facts, {
        timeZone: sub.timeZone,
        anchor: stale ? null : state.anchor,
      });
      if (stale && sub.type === "VEHICLETOWED" && !facts.events.has("VEHICLE_EVENT_TOWED")) continue;
      if (outcome.met === null) {
        if (!stale && outcome.anchor !== undefined && outcome.anchor !== state.anchor) {
          state = { ...state, anchor: outcome.anchor };
          changed = true;
        }
        continue;
      }

      const was = state.met;
      const met = outcome.met;
      let fire: boolean;
      switch (sub.period) {
        case "CONTINUOUS":
        case "ONETIME":
          fire = met;
          break;
        case "STATECHANGE":
          fire = met !== was;
          break;
        case "INITIALSTATE":
          fire = met && !was;
          break;
      }
      if (fire && minimumMs > 0) {
        if (stale) fire = false;
        else if (state.notifiedAt && facts.at.getTime() - state.notifiedAt.getTime() < minimumMs) fire = false;
      }

      if (!stale) {
        state = {
          met,
          evaluatedAt: facts.at,
          notifiedAt: fire ? facts.at : state.notifiedAt,
          anchor: outcome.anchor !== undefined ? outcome.anchor : state.anchor,
        };
        changed = true;
      }
      if (fire) {
        notifications.push({
          subscriptionId: sub.id,
          appId: sub.appId,
          set: i,
          type: sub.type,
          at: facts.at,
          onetime: sub.period === "ONETIME",
          body: {
            minimumTime: sub.minimumTime,
            notificationPeriod: sub.period,
            creatorClientId: sub.clientId,
            ...wire(recordedValues(sub.type, sub.criteria, { facts, met })),
          },
        });
        if (sub.period === "ONETIME") break;
      }
    }
    if (changed && keepsState) states.set(sub.id, state);
  }
  return { notifications, states };
}

// Recorded values as the notification carries them: DateTimes in the wire format (docs/api.md#datetime).
function wire(recorded: Record<string, unknown>): Record<string, unknown> {
  const waypoint = recorded.recordedWaypoint as
    { timestamp: Date; latitude: number; longitude: number } | null | undefined;
  if (!waypoint) return recorded;
  return {
    ...recorded,
    recordedWaypoint: {
      timestamp: formatDateTime(waypoint.timestamp),
      latitude: waypoint.latitude,
      longitude: waypoint.longitude,
    },
  };
}
