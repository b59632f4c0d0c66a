import { Browser, hiddenFields } from "./browser";
import { uniqueName } from "./api";

// A partner using the console over real HTTP: signs up, posts console actions with the session's
// CSRF token, makes an app with a test account, vehicle and subscription. `base` points it at a
// service of a test's own (empty: the suite's service).
export class ConsolePartner extends Browser {
  email = `${uniqueName("p")}@partner.example`;
  csrf = "";

  constructor(base?: string) {
    super(undefined, base || undefined);
  }

  async signUp() {
    const csrf = JSON.parse((await this.get("/api/partner-auth/csrf")).text).csrfToken as string;
    const res = await this.post(`/api/partner-auth/callback/partner-registration`, {
      name: "Dee Partner",
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

  action(name: string, form: Record<string, string>, headers: Record<string, string> = {}) {
    return this.post(
      `/console/actions/${name}`,
      { csrfToken: this.csrf, ...form },
      { Accept: "application/json", ...headers },
    ).then((page) => ({ ...page, body: page.text ? JSON.parse(page.text) : null }));
  }

  async ok(name: string, form: Record<string, string>) {
    const res = await this.action(name, form);
    if (res.status !== 200) throw new Error(`${name} failed: ${res.status} ${res.text}`);
    return res.body as { redirect: string; reveal?: Record<string, string | number> };
  }

  async createApp() {
    const made = await this.ok("create-app", {
      name: uniqueName("app"),
      redirectUris: "https://partner.example/callback",
      clientType: "confidential",
    });
    return {
      appId: Number(/\/console\/apps\/(\d+)/.exec(made.redirect)![1]),
      clientId: String(made.reveal!.clientId),
      clientSecret: String(made.reveal!.clientSecret),
    };
  }

  /** An app with a test account and its vehicle. */
  async appWithVehicle() {
    const app = await this.createApp();
    const appId = String(app.appId);
    const accountId = String((await this.ok("create-test-account", { appId })).reveal!.accountId);
    const vehicleId = Number((await this.ok("create-test-vehicle", { appId, accountId })).reveal!.vehicleId);
    return { app, appId, vehicleId };
  }

  subscribe(appId: string, vehicleId: number, delivery: Record<string, string>, environment = "sandbox") {
    return this.action("create-subscription", {
      appId,
      environment,
      scope: "VEHICLE",
      target: String(vehicleId),
      type: "WAYPOINT",
      notificationPeriod: "CONTINUOUS",
      minimumTime: "0",
      ...delivery,
    });
  }

  async testNotification(appId: string, subscriptionId: number): Promise<number> {
    return Number(
      (await this.ok("send-test-notification", { appId, subscriptionId: String(subscriptionId) })).reveal!
        .notificationId,
    );
  }
}
