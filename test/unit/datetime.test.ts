import { describe, expect, it } from "vitest";
import { formatDateTime, parseDateTime } from "@/server/http/datetime";

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
    for (const bad of ["20140230T000000+0000", "20141312T000000+0000", "20141112T245503+0000", "2014-11-12T19:55:03Z", "20141112T195503", "x"]) {
      expect(parseDateTime(bad), bad).toBeNull();
    }
  });

  it("round-trips", () => {
    const now = new Date(Math.floor(Date.now() / 1000) * 1000);
    expect(parseDateTime(formatDateTime(now))?.getTime()).toBe(now.getTime());
  });
});
