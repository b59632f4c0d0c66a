import { beforeAll, describe, expect, test } from "vitest";
import { api, apiBase } from "@/test/helpers/api";
import { expectFieldErrors } from "@/test/helpers/fixtures";
import { freshApp, type FeedApp } from "@/test/helpers/event-feed-fixture";
import { openSse } from "@/test/helpers/sse";

// A cursor longer than any the feed hands out is a malformed cursor (docs/event-feed.md#the-cursor):
// 400 VALIDATION, field `after`, code INVALID, on the feed and on the stream, as a short malformed
// one is; never TOO_LONG.

describe("an over-long cursor", () => {
  let feed: FeedApp;
  beforeAll(async () => {
    feed = await freshApp();
  }, 60_000);

  test("GET /eventFeed/?after=<201 to 5,000 characters> → 400 after INVALID, as a short malformed cursor", async () => {
    for (const after of ["1." + "a".repeat(199), "x".repeat(201), "1.".repeat(2500), "not-a-cursor"]) {
      const r = await api("sandbox").get(`/eventFeed/?after=${encodeURIComponent(after)}`, feed.client);
      expectFieldErrors(r, { after: "INVALID" });
    }
  });

  test("GET /eventFeed/stream?after=<300 characters> and Last-Event-ID of 300 → 400 after INVALID in JSON", async () => {
    const long = "y".repeat(300);
    for (const stream of [
      await openSse(`${apiBase("sandbox")}/eventFeed/stream?after=${long}`, { token: feed.client }),
      await openSse(`${apiBase("sandbox")}/eventFeed/stream`, { token: feed.client, lastEventId: long }),
    ]) {
      expect(stream.headers.get("content-type")).toMatch(/^application\/json/);
      expectFieldErrors(
        { status: stream.status, headers: stream.headers, text: stream.text, body: JSON.parse(stream.text) },
        {
          after: "INVALID",
        },
      );
    }
  });
});
