import { describe, expect, it } from "vitest";
import { testSql } from "@/test/helpers/api";
import { visibleText } from "@/test/helpers/browser";
import { ConsolePartner } from "@/test/helpers/console-partner";

// The console names vehicles by label and name, linked to the vehicle on the connected-accounts
// page, instead of bare ids: the notifications list, a notification's page and the subscriptions
// list (on the suite's service; the test notification needs no worker).

describe("console: vehicles by label, linked", () => {
  it("notifications, a notification and subscriptions show the vehicle's label and id, linked to its row on the accounts page; a deleted vehicle keeps its id", async () => {
    const partner = await new ConsolePartner().signUp();
    const { appId, vehicleId } = await partner.appWithVehicle();
    const sub = await partner.subscribe(appId, vehicleId, {
      delivery: "HTTP_POST",
      postUrl: "https://partner.example/hook",
    });
    expect(sub.status, sub.text).toBe(200);
    const notificationId = await partner.testNotification(appId, Number(sub.body.reveal.subscriptionId));
    const [vehicle] = await testSql()`select label from vehicles where id = ${vehicleId}`;
    const label = vehicle!.label as string;
    expect(label).toMatch(/^Test car /);
    const link = `href="/console/apps/${appId}/accounts?env=sandbox#vehicle-${vehicleId}"`;

    for (const page of [
      `/console/apps/${appId}/notifications?env=sandbox`,
      `/console/apps/${appId}/notifications/${notificationId}`,
      `/console/apps/${appId}/subscriptions?env=sandbox`,
    ]) {
      const html = (await partner.get(page)).text;
      expect(html, page).toContain(link);
      // The label and the id; the name only where the VIN gave one (a test car has none).
      expect(visibleText(html), page).toMatch(new RegExp(`${label}\\s*#${vehicleId}`));
    }
    expect((await partner.get(`/console/apps/${appId}/accounts?env=sandbox`)).text).toContain(
      `id="vehicle-${vehicleId}"`,
    );

    // Deleted (its notification stays, as an account-scope one would): the id, marked deleted, no link.
    await testSql()`update notifications set vehicle_id = ${vehicleId + 1_000_000} where id = ${notificationId}`;
    const html = (await partner.get(`/console/apps/${appId}/notifications/${notificationId}`)).text;
    expect(visibleText(html)).toContain(`vehicle ${vehicleId + 1_000_000} (deleted)`);
  });
});

describe("console: one table component", () => {
  it("the notifications, vehicles and delivery-log tables are alike: a focusable named scrolling region, a caption, column headers", async () => {
    const partner = await new ConsolePartner().signUp();
    const { appId, vehicleId } = await partner.appWithVehicle();
    const sub = await partner.subscribe(appId, vehicleId, {
      delivery: "HTTP_POST",
      postUrl: "https://partner.example/hook",
    });
    const notificationId = await partner.testNotification(appId, Number(sub.body.reveal.subscriptionId));
    // One attempt recorded as the worker would (this service runs without one), for the delivery log's table.
    const [row] =
      await testSql()`select id, delivery_id from notification_deliveries where notification_id = ${notificationId}`;
    await testSql()`insert into delivery_attempts (notification_delivery_id, notification_id, delivery_id, attempted_at,
      target, outcome, http_status, latency_ms, request_headers)
      values (${row!.id}, ${notificationId}, ${row!.delivery_id}, now(), 'https://partner.example/hook', 'DELIVERED', 200, 42, ${JSON.stringify({ "webhook-id": String(notificationId) })}::jsonb)`;

    const tables: [string, string][] = [
      [`/console/apps/${appId}/notifications?env=sandbox`, "Notifications table"],
      [`/console/apps/${appId}/accounts?env=sandbox`, `Vehicles of account `],
      [`/console/apps/${appId}/notifications/${notificationId}`, "Attempts of delivery "],
    ];
    for (const [page, label] of tables) {
      const html = (await partner.get(page)).text;
      const region = new RegExp(
        `<div class="overflow-x-auto[^"]*" tabindex="0" role="region" aria-label="${label}[^"]*"><table ` +
          `class="w-full text-left text-sm" style="min-width:[^"]+"><caption ` +
          `class="sr-only">[^<]+</caption><thead><tr[^>]*><th scope="col" class="px-3 py-2">`,
      );
      expect(html, page).toMatch(region);
    }
    const log = visibleText((await partner.get(`/console/apps/${appId}/notifications/${notificationId}`)).text);
    expect(log).toContain("42 ms");
    expect(log).toContain(`webhook-id: ${notificationId}`);
  });
});
