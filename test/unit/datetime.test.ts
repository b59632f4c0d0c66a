import { describe, expect, it } from "vitest";
import { formatDateTime, parseDateTime } from "@/common/http/datetime";

describe("wire DateTime", () => {
  it("formats in UTC with +0000, never Z", () => {
    expect(formatDateTime(new Date("2014-11-12T19:55:03.999Z"))).toBe("20141112T195503+0000");
    expect(formatDateTime(null)).toBeNull();
  });

  it("parses any offset into the same instant", () => {
    expect(parseDateTime("20141112T195503+0000")?.toISOString()).toBe("2014-11-12T19:55:03.000Z");
    expect(parseDateTime("20141112T145503-0500")?.toISOString()).toBe("2014-11-12T19:55:03.000Z");
    expect(parseDateTime("20141113T012503+0530")?.toISOString()).toBe("2014-11-12T19:55:03.000Z");
  });

  it("accepts a + that arrived URL-decoded as a space", () => {
    expect(parseDateTime("20141112T195503 0000")?.toISOString()).toBe("2014-11-12T19:55:03.000Z");
  });

  it("rejects impossible dates and other shapes", () => {
    for (const bad of [
      "20140230T000000+0000",
      "20141312T000000+0000",
      "20141112T245503+0000",
      "2014-11-12T19:55:03Z",
      "20141112T195503",
      "x",
    ]) {
      expect(parseDateTime(bad), bad).toBeNull();
    }
  });

  it("gives each caller its own Date when the same text comes again (the last text is remembered)", () => {
    const first = parseDateTime("20141112T195503+0000")!;
    first.setUTCFullYear(1999);
    const second = parseDateTime("20141112T195503+0000")!;
    expect(second).not.toBe(first);
    expect(second.toISOString()).toBe("2014-11-12T19:55:03.000Z");
    expect(parseDateTime("20140230T000000+0000")).toBeNull();
    expect(parseDateTime("20140230T000000+0000")).toBeNull();
    expect(parseDateTime("20141112T195504+0000")?.toISOString()).toBe("2014-11-12T19:55:04.000Z");
  });

  it("knows which months have 29, 30 and 31 days, leap years included", () => {
    for (const good of [
      "20240229T000000+0000",
      "20000229T120000+0000",
      "20230430T000000+0000",
      "20231231T235959+0000",
    ]) {
      expect(parseDateTime(good)?.toISOString().slice(0, 10), good).toBe(
        `${good.slice(0, 4)}-${good.slice(4, 6)}-${good.slice(6, 8)}`,
      );
    }
    for (const bad of [
      "20230229T000000+0000",
      "19000229T000000+0000",
      "20230431T000000+0000",
      "20230631T000000+0000",
      "20230932T000000+0000",
    ]) {
      expect(parseDateTime(bad), bad).toBeNull();
    }
  });

  it("formats every second of the range the same way as from its UTC parts", () => {
    const two = (n: number) => String(n).padStart(2, "0");
    const parts = (d: Date) =>
      `${String(d.getUTCFullYear()).padStart(4, "0")}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}T${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}+0000`;
    for (let i = 0; i < 2000; i++) {
      const d = new Date(
        Date.UTC(1970 + (i % 130), i % 12, 1 + (i % 28), i % 24, (i * 7) % 60, (i * 13) % 60, i % 1000),
      );
      expect(formatDateTime(d)).toBe(parts(d));
    }
    // Past year 9999 toISOString changes shape; the parts are still right.
    expect(formatDateTime(new Date(Date.UTC(12345, 0, 2, 3, 4, 5)))).toBe("123450102T030405+0000");
  });

  it("round-trips", () => {
    const now = new Date(Math.floor(Date.now() / 1000) * 1000);
    expect(parseDateTime(formatDateTime(now))?.getTime()).toBe(now.getTime());
  });
});
