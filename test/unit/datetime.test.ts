import { describe, expect, it } from "vitest";
import { formatDateTime, parseDateTime, parseLocalDateTime } from "@/common/http/datetime";

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
      `${String(d.getUTCFullYear()).padStart(4, "0")}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}` +
      `T${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}+0000`;
    for (let i = 0; i < 2000; i++) {
      const d = new Date(
        Date.UTC(1970 + (i % 130), i % 12, 1 + (i % 28), i % 24, (i * 7) % 60, (i * 13) % 60, i % 1000),
      );
      expect(formatDateTime(d)).toBe(parts(d));
    }
    // Past year 9999 toISOString changes shape; the parts are still right.
    expect(formatDateTime(new Date(Date.UTC(12345, 0, 2, 3, 4, 5)))).toBe("123450102T030405+0000");
  });

  it("takes years 1000 to 9999 in UTC after the offset, and never reads 0000–0099 as 19xx", () => {
    expect(parseDateTime("10000101T000000+0000")?.toISOString()).toBe("1000-01-01T00:00:00.000Z");
    expect(parseDateTime("99991231T235959+0000")?.toISOString()).toBe("9999-12-31T23:59:59.000Z");
    // The offset moves an instant across an edge, either way.
    expect(parseDateTime("09991231T230000-0200")?.toISOString()).toBe("1000-01-01T01:00:00.000Z");
    expect(parseDateTime("100001011T000000+0000")).toBeNull();
    for (const out of [
      "99991231T235959-1400", // year 10000 in UTC
      "99991231T235959-0001",
      "10000101T000000+0001", // year 999 in UTC
      "00000101T000000+0000",
      "00500101T000000+0000",
      "00991231T235959+0000",
      "09991231T235959+0000",
    ]) {
      expect(parseDateTime(out), out).toBeNull();
    }
  });

  it("reads datetime-local as UTC in the same range", () => {
    expect(parseLocalDateTime("2014-11-12T19:55")?.toISOString()).toBe("2014-11-12T19:55:00.000Z");
    expect(parseLocalDateTime("2014-11-12T19:55:03")?.toISOString()).toBe("2014-11-12T19:55:03.000Z");
    expect(parseLocalDateTime("2014-11-12T19:55:03.25")?.toISOString()).toBe("2014-11-12T19:55:03.250Z");
    expect(parseLocalDateTime("9999-12-31T23:59:59.999")?.toISOString()).toBe("9999-12-31T23:59:59.999Z");
    expect(parseLocalDateTime("1000-01-01T00:00")?.toISOString()).toBe("1000-01-01T00:00:00.000Z");
    for (const bad of [
      "0000-01-01T00:00",
      "0050-06-01T12:00",
      "0999-12-31T23:59:59.999",
      "2023-02-29T00:00",
      "2014-11-12T24:00",
      "2014-11-12",
      "2014-11-12T19:55Z",
      "yesterday",
    ]) {
      expect(parseLocalDateTime(bad), bad).toBeNull();
    }
  });

  it("round-trips", () => {
    const now = new Date(Math.floor(Date.now() / 1000) * 1000);
    expect(parseDateTime(formatDateTime(now))?.getTime()).toBe(now.getTime());
  });
});
