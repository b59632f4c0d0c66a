import { describe, expect, it } from "vitest";
import { testSql } from "@/test/helpers/api";
import { visibleText } from "@/test/helpers/browser";
import { ConsolePartner } from "@/test/helpers/console-partner";

// The app page's "App events" form (docs/console.md#app-events) over real HTTP, through the
// console action it posts (set-app-event-endpoint): a valid URL is saved and shown in the form, a
// second replaces it, an empty one removes it; a refused URL is a 400 with the error on the field
// and changes nothing; another partner's app is a 404. Where the events then go, signed, is
// app-events.test.ts (a service of its own with the worker on).

const newPartner = () => new ConsolePartner().signUp();

/** The value the app page's URL field of an environment shows, and the line above it. */
async function shown(partner: ConsolePartner, appId: number, environment: "sandbox" | "production") {
  const page = await partner.get(`/console/apps/${appId}`);
  expect(page.status).toBe(200);
  const input = new RegExp(`<input[^>]*id="f-app-event-url-${environment}"[^>]*>`).exec(page.text)?.[0];
  const line = new RegExp(`data-testid="app-events-${environment}"[^>]*>([\\s\\S]*?)</p>`).exec(page.text)?.[1];
  return {
    field: input === undefined ? undefined : (/ value="([^"]*)"/.exec(input)?.[1] ?? ""),
    line: line === undefined ? undefined : visibleText(line),
  };
}

/** The endpoint rows of the app's hidden APP subscription, as stored. */
const stored = (appId: number) =>
  testSql()<{ environment: string; post_url: string }[]>`
    select s.environment, d.post_url from subscriptions s join subscription_deliveries d on d.subscription_id = s.id
     where s.app_id = ${appId} and s.scope = 'APP' order by s.environment`;

describe("the app-event endpoint form", () => {
  it("a new app shows an empty field per environment with credentials; a valid URL is saved and shown, another replaces it, an empty one removes it", async () => {
    const partner = await newPartner();
    const { appId } = await partner.createApp();
    expect(await shown(partner, appId, "sandbox")).toEqual({
      field: "",
      line: "No endpoint: the events are in the app's event feed only.",
    });
    // No production credentials yet: no production form.
    expect((await shown(partner, appId, "production")).field).toBeUndefined();

    const set = (url: string) =>
      partner.action("set-app-event-endpoint", { appId: String(appId), environment: "sandbox", url });
    const first = await set("https://receiver.partner.io/wayline/app-events");
    expect(first.status, first.text).toBe(200);
    expect(first.body.redirect).toBe(`/console/apps/${appId}`);
    expect(await shown(partner, appId, "sandbox")).toEqual({
      field: "https://receiver.partner.io/wayline/app-events",
      line: "Sent to https://receiver.partner.io/wayline/app-events.",
    });
    expect(await stored(appId)).toEqual([
      { environment: "sandbox", post_url: "https://receiver.partner.io/wayline/app-events" },
    ]);

    expect((await set("  https://hooks.partner.io/revoked  ")).status).toBe(200);
    expect((await shown(partner, appId, "sandbox")).field).toBe("https://hooks.partner.io/revoked");
    expect(await stored(appId)).toEqual([{ environment: "sandbox", post_url: "https://hooks.partner.io/revoked" }]);

    expect((await set("")).status).toBe(200);
    expect((await shown(partner, appId, "sandbox")).field).toBe("");
    expect(await stored(appId)).toEqual([]);
  });

  it("an http, private-address or malformed URL → 400 with the error on the url field; the saved URL stays", async () => {
    const partner = await newPartner();
    const { appId } = await partner.createApp();
    const set = (url: string) =>
      partner.action("set-app-event-endpoint", { appId: String(appId), environment: "sandbox", url });
    expect((await set("https://receiver.partner.io/kept")).status).toBe(200);
    for (const url of ["http://receiver.partner.io/hook", "not a url", "https://10.0.0.7/hook"]) {
      const refused = await set(url);
      expect(refused.status, refused.text).toBe(400);
      expect(refused.body.fieldErrors).toEqual([
        expect.objectContaining({ fieldName: "url", errorDisplay: expect.any(String) }),
      ]);
    }
    expect((await shown(partner, appId, "sandbox")).field).toBe("https://receiver.partner.io/kept");
    expect(await stored(appId)).toEqual([{ environment: "sandbox", post_url: "https://receiver.partner.io/kept" }]);
  });

  it("another partner's app → 404, and its endpoint is unchanged", async () => {
    const owner = await newPartner();
    const { appId } = await owner.createApp();
    expect(
      (
        await owner.action("set-app-event-endpoint", {
          appId: String(appId),
          environment: "sandbox",
          url: "https://receiver.partner.io/owner",
        })
      ).status,
    ).toBe(200);
    const other = await newPartner();
    for (const url of ["https://attacker.partner.io/steal", ""]) {
      const res = await other.action("set-app-event-endpoint", { appId: String(appId), environment: "sandbox", url });
      expect(res.status, res.text).toBe(404);
    }
    expect((await other.get(`/console/apps/${appId}`)).status).toBe(404);
    expect(await stored(appId)).toEqual([{ environment: "sandbox", post_url: "https://receiver.partner.io/owner" }]);
  });
});
