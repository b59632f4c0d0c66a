import { describe, expect, it } from "vitest";
import { testSql, uniqueName } from "@/test/helpers/api";
import { Browser, hiddenFields, visibleText } from "@/test/helpers/browser";
import { recordAttemptRollups } from "@/server/delivery/attempt-rollups";

// The console's delivery health page (/console/apps/{id}/health) over real HTTP and the real
// database: attempts are recorded at known times, latencies and statuses (into delivery_attempts
// and the rollup, by the rollup's own code, as the worker records them), and the page must show
// exactly the figures they make (counts, success rate, failures by status, the backlog and the
// state; p50/p95 within 5 % of percentile_disc), per window, per delivery and for the app. The
// charts themselves are drawn in the browser: e2e/console-health.spec.ts. The rollup against real
// deliveries by two workers: delivery-rollup.test.ts.

class Partner extends Browser {
  email = `${uniqueName("p")}@partner.example`;
  csrf = "";

  async signUp() {
    const csrf = JSON.parse((await this.get("/api/partner-auth/csrf")).text).csrfToken as string;
    const res = await this.post(`/api/partner-auth/callback/partner-registration`, {
      name: "Hal Partner",
      email: this.email,
      password: "partner-password-1",
      csrfToken: csrf,
      callbackUrl: "/console/apps",
      json: "true",
    });
    if (new URL(JSON.parse(res.text).url as string).searchParams.get("error"))
      throw new Error(`sign-up failed: ${res.text}`);
    this.csrf = hiddenFields((await this.get("/console/apps")).text).csrfToken ?? "";
    return this;
  }

  async action(name: string, form: Record<string, string>) {
    const res = await this.post(
      `/console/actions/${name}`,
      { csrfToken: this.csrf, ...form },
      { Accept: "application/json" },
    );
    return { status: res.status, text: res.text, body: res.text ? JSON.parse(res.text) : null };
  }

  async ok(name: string, form: Record<string, string>) {
    const res = await this.action(name, form);
    if (res.status !== 200) throw new Error(`${name} failed: ${res.status} ${res.text}`);
    return res.body as { redirect: string; reveal?: Record<string, string | number> };
  }
}

type Subscribed = { appId: string; subscriptionId: number; deliveryId: number };

/** An app with a test vehicle and `count` WAYPOINT subscriptions, each with one HTTP_POST delivery. */
async function appWithDeliveries(partner: Partner, count: number): Promise<{ appId: string; subs: Subscribed[] }> {
  const made = await partner.ok("create-app", {
    name: uniqueName("health"),
    redirectUris: "https://partner.example/callback",
    clientType: "confidential",
  });
  const appId = /\/console\/apps\/(\d+)/.exec(made.redirect)![1]!;
  const accountId = String((await partner.ok("create-test-account", { appId })).reveal!.accountId);
  const vehicleId = String((await partner.ok("create-test-vehicle", { appId, accountId })).reveal!.vehicleId);
  const subs: Subscribed[] = [];
  for (let i = 0; i < count; i++) {
    const sub = await partner.ok("create-subscription", {
      appId,
      environment: "sandbox",
      scope: "VEHICLE",
      target: vehicleId,
      type: "WAYPOINT",
      notificationPeriod: "CONTINUOUS",
      minimumTime: "0",
      delivery: "HTTP_POST",
      postUrl: `https://partner.example/hook-${i}`,
    });
    const subscriptionId = Number(sub.reveal!.subscriptionId);
    const [d] = await testSql()`select id from subscription_deliveries where subscription_id = ${subscriptionId}`;
    subs.push({ appId, subscriptionId, deliveryId: Number(d!.id) });
  }
  return { appId, subs };
}

/** A pending notification_deliveries row of the subscription (a test notification), its id. */
async function pendingRow(partner: Partner, s: Subscribed): Promise<number> {
  const sent = await partner.ok("send-test-notification", { appId: s.appId, subscriptionId: String(s.subscriptionId) });
  const [row] =
    await testSql()`select id from notification_deliveries where notification_id = ${Number(sent.reveal!.notificationId)} and delivery_id = ${s.deliveryId}`;
  return Number(row!.id);
}

type Attempt = { ago: string; outcome: string; status: number | null; latency: number };

async function attempts(notificationDeliveryId: number, deliveryId: number, list: Attempt[]) {
  for (const a of list) {
    await testSql().begin(async (sql) => {
      const [row] = await sql`
        insert into delivery_attempts (notification_delivery_id, notification_id, delivery_id, attempted_at, target, outcome, http_status, latency_ms)
        select id, notification_id, delivery_id, now() - ${a.ago}::interval, 'https://partner.example/hook', ${a.outcome}, ${a.status}, ${a.latency}
        from notification_deliveries where id = ${notificationDeliveryId} and delivery_id = ${deliveryId}
        returning attempted_at`;
      await recordAttemptRollups(sql, [
        {
          deliveryId,
          attemptedAt: row!.attempted_at as Date,
          outcome: a.outcome,
          httpStatus: a.status,
          latencyMs: a.latency,
        },
      ]);
    });
  }
}

/** A shown latency ("290 ms") as "≈300 ms" when it is within 5 % (and the rounding) of the exact 300, else as shown. */
function near(shown: string | undefined, exact: number): string {
  const value = Number(/^(\d+) ms$/.exec(shown ?? "")?.[1] ?? NaN);
  return Math.abs(value - exact) <= 0.05 * exact + 0.5 ? `≈${exact} ms` : (shown ?? "");
}

/** A window's row with p50/p95 read as `near` their exact values. */
const approx = (row: Record<string, string> | undefined, p50: number, p95: number) => ({
  ...row,
  p50: near(row?.p50, p50),
  p95: near(row?.p95, p95),
});

/** The figures of one block of the page (the app's or a delivery's), as a person reads them. */
function block(html: string, testId: string) {
  const totals = new RegExp(`data-testid="${testId}-totals"[\\s\\S]*?</table>`).exec(html)?.[0] ?? "";
  const windows: Record<string, Record<string, string>> = {};
  for (const [, w, row] of totals.matchAll(/<tr data-window="(\w+)"[^>]*>([\s\S]*?)<\/tr>/g)) {
    windows[w!] = Object.fromEntries(
      [...row!.matchAll(/data-cell="(\w+)"[^>]*>([\s\S]*?)<\/td>/g)].map(([, k, v]) => [k!, visibleText(v!)]),
    );
  }
  const backlogHtml = new RegExp(`data-testid="${testId}-backlog"[\\s\\S]*?</dl>`).exec(html)?.[0] ?? "";
  const backlog = Object.fromEntries(
    [...backlogHtml.matchAll(/data-cell="(\w+)"[^>]*>([\s\S]*?)<\/dd>/g)].map(([, k, v]) => [k!, visibleText(v!)]),
  );
  return { windows, backlog };
}

/** A delivery's state line (type, target, state, reason, button), read up to `end`. */
const stateOf = (html: string, deliveryId: number, end: string) =>
  visibleText(
    new RegExp(`data-testid="health-delivery-${deliveryId}-state"[^>]*>([\\s\\S]*?)${end}`).exec(html)?.[1] ?? "",
  );

const newPartner = () => new Partner().signUp();

describe("console delivery health", () => {
  it("shows attempts, success rate, p50/p95, backlog and state per window for each delivery and for the app", async () => {
    const partner = await newPartner();
    const { appId, subs } = await appWithDeliveries(partner, 2);
    const [first, second] = subs as [Subscribed, Subscribed];
    const row = await pendingRow(partner, first);
    await attempts(row, first.deliveryId, [
      // The last hour: 4 delivered, a 500, a timeout (no status); a redirect leg is not an attempt.
      { ago: "10 minutes", outcome: "DELIVERED", status: 200, latency: 100 },
      { ago: "11 minutes", outcome: "DELIVERED", status: 200, latency: 200 },
      { ago: "12 minutes", outcome: "DELIVERED", status: 200, latency: 300 },
      { ago: "13 minutes", outcome: "DELIVERED", status: 200, latency: 400 },
      { ago: "14 minutes", outcome: "RETRY", status: 500, latency: 1000 },
      { ago: "15 minutes", outcome: "RETRY", status: null, latency: 10000 },
      { ago: "16 minutes", outcome: "REDIRECTED", status: 301, latency: 50 },
      // Just outside the hour (inside the day): in the 24 h figures only.
      { ago: "61 minutes", outcome: "RETRY", status: 502, latency: 20000 },
      // The last day: two more delivered, a 503.
      { ago: "5 hours", outcome: "DELIVERED", status: 200, latency: 500 },
      { ago: "6 hours", outcome: "DELIVERED", status: 200, latency: 600 },
      { ago: "7 hours", outcome: "RETRY", status: 503, latency: 700 },
      // Just outside the day: in the 7 d figures only.
      { ago: "24 hours 2 minutes", outcome: "RETRY", status: 504, latency: 30000 },
      // The last week: a 410 that deactivated it.
      { ago: "3 days", outcome: "DEACTIVATED", status: 410, latency: 800 },
      // Older than every window.
      { ago: "10 days", outcome: "DELIVERED", status: 200, latency: 5 },
      { ago: "10 days", outcome: "RETRY", status: 502, latency: 5 },
    ]);
    // The second delivery: one delivered attempt in the last hour, nothing waiting.
    const otherRow = await pendingRow(partner, second);
    await attempts(otherRow, second.deliveryId, [
      { ago: "20 minutes", outcome: "DELIVERED", status: 200, latency: 50 },
    ]);
    await testSql()`update notification_deliveries set status = 'DELIVERED' where id = ${otherRow}`;
    // The backlog of the first: its row (failing for an hour, one failed attempt) and a second one, 2 h 30 min old.
    await testSql()`update notification_deliveries set attempts = 1, failing_since = now() - interval '1 hour' where id = ${row}`;
    const older = await pendingRow(partner, first);
    await testSql()`update notification_deliveries set created_at = now() - interval '2 hours 30 minutes' where id = ${older}`;

    const page = await partner.get(`/console/apps/${appId}/health?env=sandbox&window=24h`);
    expect(page.status).toBe(200);
    const one = block(page.text, `health-delivery-${first.deliveryId}`);
    // Exact p50/p95 (percentile_disc): 1 h of 100 200 300 400 1000 10000; 24 h adds 500 600 700
    // 20000; 7 d adds 800 30000.
    expect({
      "1h": approx(one.windows["1h"], 300, 10000),
      "24h": approx(one.windows["24h"], 500, 20000),
      "7d": approx(one.windows["7d"], 600, 30000),
    }).toEqual({
      "1h": { attempts: "6", success: "66.6 %", p50: "≈300 ms", p95: "≈10000 ms" },
      "24h": { attempts: "10", success: "60.0 %", p50: "≈500 ms", p95: "≈20000 ms" },
      "7d": { attempts: "12", success: "50.0 %", p50: "≈600 ms", p95: "≈30000 ms" },
    });
    expect(visibleText(page.text)).toContain(
      "Counts are exact; p50 and p95 are read from a latency histogram, within 5 % of the exact values.",
    );
    // The page is read within seconds of the update; a minute more on a stalled machine is no error.
    expect(one.backlog).toEqual({ pending: "2", oldest: expect.stringMatching(/^2 h 3[01] min ago$/), retrying: "1" });
    const two = block(page.text, `health-delivery-${second.deliveryId}`);
    expect(approx(two.windows["1h"], 50, 50)).toEqual({
      attempts: "1",
      success: "100.0 %",
      p50: "≈50 ms",
      p95: "≈50 ms",
    });
    expect(two.backlog).toEqual({ pending: "0", oldest: "none waiting", retrying: "0" });
    // The app: both deliveries' attempts together, percentiles over all of them.
    const app = block(page.text, "health-app");
    expect(approx(app.windows["1h"], 300, 10000)).toEqual({
      attempts: "7",
      success: "71.4 %",
      p50: "≈300 ms",
      p95: "≈10000 ms",
    });
    expect(approx(app.windows["7d"], 600, 30000)).toEqual({
      attempts: "13",
      success: "53.8 %",
      p50: "≈600 ms",
      p95: "≈30000 ms",
    });
    expect(app.backlog).toEqual({ pending: "2", oldest: expect.stringMatching(/^2 h 3[01] min ago$/), retrying: "1" });

    // States: the first is retrying (a pending row has failed), the second active.
    const text = (id: number) => stateOf(page.text, id, "</div>");
    expect(text(first.deliveryId)).toBe(
      "HTTP_POST https://partner.example/hook-0 retrying failing since " + (await failingSince(row)),
    );
    expect(text(second.deliveryId)).toBe("HTTP_POST https://partner.example/hook-1 active");
  });

  it("failures by status cover the chosen window; the series has one bucket per stride of it, on the UTC grid", async () => {
    const partner = await newPartner();
    const { appId, subs } = await appWithDeliveries(partner, 1);
    const [s] = subs as [Subscribed];
    const row = await pendingRow(partner, s);
    await attempts(row, s.deliveryId, [
      { ago: "5 minutes", outcome: "RETRY", status: 500, latency: 10 },
      { ago: "6 minutes", outcome: "RETRY", status: 500, latency: 10 },
      { ago: "7 minutes", outcome: "RETRY", status: null, latency: 10 },
      { ago: "2 days", outcome: "DEACTIVATED", status: 410, latency: 10 },
      { ago: "2 days", outcome: "DELIVERED", status: 200, latency: 10 },
    ]);
    // The series' buckets: the window's strides on the UTC grid, from the one holding the window's
    // start to the one holding now (as of the page's reading, between `before` and `after`).
    const grid = (seconds: number, stride: number, now: number) => {
      const out: string[] = [];
      for (let t = Math.floor((now - seconds * 1000) / (stride * 1000)) * stride * 1000; t < now; t += stride * 1000)
        out.push(new Date(t).toISOString());
      return out;
    };
    const failuresOf = async (window: string) => {
      const before = Date.now();
      const html = (await partner.get(`/console/apps/${appId}/health?env=sandbox&window=${window}`)).text;
      const after = Date.now();
      // The chart's data reaches the browser in the page's RSC payload; read it from there.
      const payload = html.replace(/\\"/g, '"');
      const failures = [...payload.matchAll(/"failures":\[(.*?)\]/g)].map((m) => m[1]);
      const series = [...payload.matchAll(/"series":\[(.*?)\]/g)].map((m) =>
        [...m[1]!.matchAll(/"at":"([^"]+)"/g)].map((at) => at[1]!),
      );
      // Either reading of the grid: the page's now lies between before and after.
      const expected = (seconds: number, stride: number) => [
        grid(seconds, stride, before),
        grid(seconds, stride, after),
      ];
      return {
        failures: failures[0],
        buckets: series[0],
        expected,
        current: /aria-current="true"[^>]*>([^<]*)</.exec(html.slice(html.indexOf('aria-label="Window"')))?.[1],
      };
    };
    const hour = await failuresOf("1h");
    expect(hour.current).toBe("Last hour");
    expect(JSON.parse(`[${hour.failures}]`)).toEqual([
      { status: "500", failures: 2 },
      { status: "no answer", failures: 1 },
    ]);
    expect(hour.expected(3600, 300)).toContainEqual(hour.buckets);
    expect(hour.buckets!.length).toBeGreaterThanOrEqual(12);
    const week = await failuresOf("7d");
    expect(week.current).toBe("Last 7 days");
    expect(JSON.parse(`[${week.failures}]`)).toEqual([
      { status: "500", failures: 2 },
      { status: "410", failures: 1 },
      { status: "no answer", failures: 1 },
    ]);
    expect(week.expected(604_800, 21_600)).toContainEqual(week.buckets);
    // An unknown window is the default, 24 hours (1 h buckets).
    const fallback = await failuresOf("forever");
    expect(fallback.current).toBe("Last 24 hours");
    expect(fallback.expected(86_400, 3600)).toContainEqual(fallback.buckets);
  });

  it("a deactivated delivery shows its reason and Reactivate, which switches it back on and returns to the health page", async () => {
    const partner = await newPartner();
    const { appId, subs } = await appWithDeliveries(partner, 1);
    const [s] = subs as [Subscribed];
    await testSql()`update subscription_deliveries set active = false, deactivation_reason =
      'HTTP 410 Gone', deactivated_at = now() where id = ${s.deliveryId}`;
    const html = (await partner.get(`/console/apps/${appId}/health?env=sandbox`)).text;
    const state = stateOf(html, s.deliveryId, "</form>");
    expect(state).toBe("HTTP_POST https://partner.example/hook-0 deactivated HTTP 410 Gone Reactivate");

    const res = await partner.ok("reactivate-delivery", {
      appId,
      environment: "sandbox",
      subscriptionId: String(s.subscriptionId),
      deliveryId: String(s.deliveryId),
      returnTo: "health",
    });
    expect(res.redirect).toBe(`/console/apps/${appId}/health?env=sandbox`);
    const [after] =
      await testSql()`select active, deactivation_reason from subscription_deliveries where id = ${s.deliveryId}`;
    expect(after).toEqual({ active: true, deactivation_reason: null });
    const again = stateOf(
      (await partner.get(`/console/apps/${appId}/health?env=sandbox`)).text,
      s.deliveryId,
      "</div>",
    );
    expect(again).toBe("HTTP_POST https://partner.example/hook-0 active");
  });

  it("another partner's app → 404; an app without deliveries says how to get some", async () => {
    const owner = await newPartner();
    const { appId } = await appWithDeliveries(owner, 1);
    const stranger = await newPartner();
    expect((await stranger.get(`/console/apps/${appId}/health?env=sandbox`)).status).toBe(404);
    const made = await stranger.ok("create-app", {
      name: uniqueName("empty"),
      redirectUris: "https://partner.example/callback",
      clientType: "confidential",
    });
    const empty = await stranger.get(`${made.redirect}/health?env=sandbox`);
    expect(empty.status).toBe(200);
    expect(visibleText(empty.text)).toContain("No sandbox deliveries yet");
  });
});

async function failingSince(notificationDeliveryId: number): Promise<string> {
  const [row] = await testSql()`select failing_since from notification_deliveries where id = ${notificationDeliveryId}`;
  return (row!.failing_since as Date).toISOString();
}
