import { describe, expect, it } from "vitest";
import { closedEpisode, stepEpisode, type Episode } from "@/server/alerts/episodes";
import { evaluateAlerts, type AlertRules } from "@/server/alerts/evaluate";
import { factsOf } from "@/server/notifications/facts";
import type { DataSetInput } from "@/server/telemetry/schemas";

// One alert per episode: the de-flap state machine alone, then through evaluateAlerts on the
// partner evaluation's own facts and conditions.

const at = (seconds: number) => new Date(Date.UTC(2026, 5, 1, 12, 0, seconds));

/** Runs met values (one a second apart unless times are given) and says which alerted. */
function run(steps: [seconds: number, met: boolean | null][], start: Episode = closedEpisode()) {
  let episode = start;
  const alerts: number[] = [];
  for (const [seconds, met] of steps) {
    const step = stepEpisode(episode, met, at(seconds));
    episode = step.episode;
    if (step.alert) alerts.push(seconds);
  }
  return { alerts, episode };
}

describe("stepEpisode", () => {
  it("the first trigger alerts and opens the episode", () => {
    const { alerts, episode } = run([[0, true]]);
    expect(alerts).toEqual([0]);
    expect(episode).toMatchObject({ open: true, openedAt: at(0), clearSince: null });
  });

  it("a condition that flaps within two minutes alerts once", () => {
    const { alerts } = run([
      [0, true],
      [30, false],
      [60, true],
      [90, false],
      [150, true],
      [200, false],
      [310, true],
    ]);
    expect(alerts).toEqual([0]);
  });

  it("clear for two minutes closes the episode; the next trigger alerts again", () => {
    const { alerts, episode } = run([
      [0, true],
      [10, false],
      [129, false],
      [130, false],
    ]);
    expect(alerts).toEqual([0]);
    expect(episode.open).toBe(false);
    expect(run([[140, true]], episode).alerts).toEqual([140]);
  });

  it("1 s short of two minutes clear is still the same episode", () => {
    expect(
      run([
        [0, true],
        [10, false],
        [129, false],
        [129.5, true],
      ]).alerts,
    ).toEqual([0]);
  });

  it("a trigger seen two minutes after the first clear set, with no set between, is a new episode", () => {
    expect(
      run([
        [0, true],
        [10, false],
        [130, true],
      ]).alerts,
    ).toEqual([0, 130]);
  });

  it("a set that cannot say (met null) neither alerts nor clears", () => {
    const { alerts, episode } = run([
      [0, true],
      [10, null],
      [200, null],
      [210, true],
    ]);
    expect(alerts).toEqual([0]);
    expect(episode.clearSince).toBeNull();
  });

  it("sets that never trigger never alert", () => {
    expect(
      run([
        [0, false],
        [500, false],
      ]).alerts,
    ).toEqual([]);
  });
});

const set = (seconds: number, speed: number | null, extra: Partial<DataSetInput> = {}): DataSetInput => ({
  timestamp: at(seconds),
  ignitionStatus: "ON",
  datum: speed === null ? [] : [{ key: "GEN_SPEED", value: String(speed) }],
  ...extra,
});

const rules = (over: Partial<AlertRules> = {}): AlertRules => ({
  timeZone: null,
  quiet: null,
  preferences: [{ kind: "SPEEDING", email: true, browser: false, threshold: 65, unit: "mph" }],
  episodes: new Map(),
  ...over,
});

const evaluate = (r: AlertRules, sets: DataSetInput[], vehicle = { running: true, locationPaused: false }) =>
  evaluateAlerts(
    r,
    sets.map((s) => ({ facts: factsOf(s), late: false })),
    vehicle,
  );

describe("evaluateAlerts", () => {
  it("a speed around the limit makes one alert, with the speed and the limit", () => {
    const result = evaluate(rules(), [set(0, 60), set(10, 70), set(20, 64), set(30, 66), set(40, 63), set(60, 67)]);
    expect(result.alerts).toHaveLength(1);
    expect(result.alerts[0]).toMatchObject({ set: 1, kind: "SPEEDING", email: true, browser: false, quiet: false });
    expect(result.alerts[0]!.summary).toBe("Speed 70 mph, above your limit of 65 mph");
    expect(result.episodes.get("SPEEDING:0")).toMatchObject({ open: true, clearSince: null });
  });

  it("a limit in km/h is compared with GEN_SPEED's mph", () => {
    const kmh = rules({
      preferences: [{ kind: "SPEEDING", email: true, browser: false, threshold: 100, unit: "km/h" }],
    });
    // 100 km/h is 62.1 mph.
    expect(evaluate(kmh, [set(0, 62)]).alerts).toHaveLength(0);
    const [alert] = evaluate(kmh, [set(0, 63)]).alerts;
    expect(alert!.summary).toBe("Speed 101 km/h, above your limit of 100 km/h");
  });

  it("the episode read back goes on: an open one does not alert again", () => {
    const first = evaluate(rules(), [set(0, 70)]);
    const next = evaluate(rules({ episodes: first.episodes }), [set(30, 40), set(60, 80)]);
    expect(next.alerts).toHaveLength(0);
    const later = evaluate(rules({ episodes: first.episodes }), [set(30, 40), set(200, 40), set(210, 80)]);
    expect(later.alerts.map((a) => a.set)).toEqual([2]);
  });

  it("ignition on alerts on the edge, not for a vehicle already running", () => {
    const ignition = rules({
      preferences: [{ kind: "IGNITION_ON", email: true, browser: true, threshold: null, unit: null }],
    });
    const off = set(0, null, { ignitionStatus: "OFF" });
    const on = set(10, null, { ignitionStatus: "ON" });
    expect(evaluate(ignition, [off, on], { running: false, locationPaused: false }).alerts.map((a) => a.set)).toEqual([
      1,
    ]);
    expect(evaluate(ignition, [on], { running: true, locationPaused: false }).alerts).toHaveLength(0);
  });

  it("a kind with no channel chosen is not evaluated", () => {
    const none = rules({
      preferences: [{ kind: "SPEEDING", email: false, browser: false, threshold: 65, unit: "mph" }],
    });
    expect(evaluate(none, [set(0, 90)])).toEqual({ alerts: [], episodes: new Map() });
  });

  it("in the quiet hours the alert is made, marked quiet", () => {
    const quiet = rules({ quiet: { from: "11:00", to: "13:00" }, timeZone: "UTC" });
    expect(evaluate(quiet, [set(0, 90)]).alerts[0]!.quiet).toBe(true);
  });

  it("harsh events of any kind are one kind, and a second one within two minutes is the same episode", () => {
    const harsh = rules({
      preferences: [{ kind: "HARSH_DRIVING", email: true, browser: false, threshold: null, unit: null }],
    });
    const event = (seconds: number, key: string) => set(seconds, null, { datum: [{ key, value: "true" }] });
    const result = evaluate(harsh, [
      event(0, "VEHICLE_EVENT_HARSH_DECEL"),
      set(5, 30),
      event(40, "VEHICLE_EVENT_HARSH_IMPACT"),
    ]);
    expect(result.alerts.map((a) => a.summary)).toEqual(["Harsh braking"]);
  });
});
