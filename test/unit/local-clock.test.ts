import { describe, expect, it } from "vitest";
import { localClock } from "@/server/notifications/facts";

// localClock keeps the last minute read per zone; whatever the order of calls, it must say what
// the zone's clock says.
const reference = (at: Date, zone: string) => {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    weekday: "short",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return { day: get("weekday").toUpperCase(), minutes: Number(get("hour")) * 60 + Number(get("minute")) };
};

describe("localClock", () => {
  it("agrees with the zone's clock, calls for several zones interleaved, across a DST change and midnight", () => {
    // 2026-03-08: New York springs forward at 07:00 UTC; Kolkata is +05:30 all year.
    const start = Date.UTC(2026, 2, 8, 6, 58, 0);
    for (let s = 0; s < 6 * 60; s += 7) {
      const at = new Date(start + s * 1000);
      for (const zone of ["America/New_York", "Asia/Kolkata", "UTC"])
        expect(localClock(at, zone), `${zone} ${at.toISOString()}`).toEqual(reference(at, zone));
    }
    const beforeMidnight = new Date(Date.UTC(2026, 2, 8, 18, 29, 59));
    expect(localClock(beforeMidnight, "Asia/Kolkata")).toEqual({ day: "SUN", minutes: 23 * 60 + 59 });
    expect(localClock(new Date(beforeMidnight.getTime() + 1000), "Asia/Kolkata")).toEqual({ day: "MON", minutes: 0 });
    expect(localClock(new Date(beforeMidnight.getTime() - 60_000), "Asia/Kolkata")).toEqual({
      day: "SUN",
      minutes: 23 * 60 + 58,
    });
  });

  it("reads a missing zone as UTC", () => {
    expect(localClock(new Date(Date.UTC(2026, 10, 22, 9, 30, 15)), null)).toEqual({ day: "SUN", minutes: 9 * 60 + 30 });
  });
});
