import { describe, expect, it } from "vitest";
import { inQuietHours } from "@/server/alerts/quiet-hours";

// Quiet hours are local clock times in the account's zone: a window over midnight, and a
// daylight-saving change that moves the window with the local clock.

const night = { from: "22:00", to: "07:00" };

describe("inQuietHours", () => {
  it("no quiet hours: never quiet", () => {
    expect(inQuietHours(new Date("2026-06-01T03:00:00Z"), null, "UTC")).toBe(false);
  });

  it("a window within one day: from is in, to is out", () => {
    const lunch = { from: "12:00", to: "13:00" };
    expect(inQuietHours(new Date("2026-06-01T11:59:00Z"), lunch, "UTC")).toBe(false);
    expect(inQuietHours(new Date("2026-06-01T12:00:00Z"), lunch, "UTC")).toBe(true);
    expect(inQuietHours(new Date("2026-06-01T12:59:00Z"), lunch, "UTC")).toBe(true);
    expect(inQuietHours(new Date("2026-06-01T13:00:00Z"), lunch, "UTC")).toBe(false);
  });

  it("a window over midnight, read in the account's zone", () => {
    // 03:00 UTC is 23:00 the day before in New York (EDT, UTC-4).
    expect(inQuietHours(new Date("2026-06-01T03:00:00Z"), night, "America/New_York")).toBe(true);
    // 12:00 UTC is 08:00 in New York and 21:00 in Tokyo; 14:00 UTC is 23:00 in Tokyo.
    expect(inQuietHours(new Date("2026-06-01T12:00:00Z"), night, "America/New_York")).toBe(false);
    expect(inQuietHours(new Date("2026-06-01T12:00:00Z"), night, "Asia/Tokyo")).toBe(false);
    expect(inQuietHours(new Date("2026-06-01T14:00:00Z"), night, "Asia/Tokyo")).toBe(true);
  });

  it("without a zone the clock is UTC's", () => {
    expect(inQuietHours(new Date("2026-06-01T23:30:00Z"), night, null)).toBe(true);
    expect(inQuietHours(new Date("2026-06-01T07:30:00Z"), night, null)).toBe(false);
  });

  it("across the spring change the window keeps to the local clock (Europe/Berlin, 2026-03-29)", () => {
    // 05:30 UTC is 06:30 CET on the Saturday (quiet) and 07:30 CEST on the Sunday (not quiet).
    expect(inQuietHours(new Date("2026-03-28T05:30:00Z"), night, "Europe/Berlin")).toBe(true);
    expect(inQuietHours(new Date("2026-03-29T05:30:00Z"), night, "Europe/Berlin")).toBe(false);
    // 00:59 UTC is 01:59 CET, 01:00 UTC is 03:00 CEST: both in the night window.
    expect(inQuietHours(new Date("2026-03-29T00:59:00Z"), night, "Europe/Berlin")).toBe(true);
    expect(inQuietHours(new Date("2026-03-29T01:00:00Z"), night, "Europe/Berlin")).toBe(true);
  });

  it("across the autumn change the repeated hour is quiet both times (Europe/Berlin, 2026-10-25)", () => {
    const evening = { from: "02:00", to: "03:00" };
    // 00:30 UTC is 02:30 CEST, 01:30 UTC is 02:30 CET: the local hour 02:00–03:00 happens twice.
    expect(inQuietHours(new Date("2026-10-25T00:30:00Z"), evening, "Europe/Berlin")).toBe(true);
    expect(inQuietHours(new Date("2026-10-25T01:30:00Z"), evening, "Europe/Berlin")).toBe(true);
    expect(inQuietHours(new Date("2026-10-25T02:30:00Z"), evening, "Europe/Berlin")).toBe(false);
  });
});
