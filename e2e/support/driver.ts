import { expect, test, type BrowserContext, type Locator, type Page } from "@playwright/test";
import { createPartnerApp, type Credentials } from "./partner-app";

// The driver-site specs' arrangements: a sandbox driver made the partner way (a real app, account
// creation, code exchange), vehicles and data sets posted through the real API, a session made as
// the sign-in form makes it, and a browser that never reaches past loopback (map tiles included).

export const baseUrl = () => `http://127.0.0.1:${process.env.E2E_PORT}`;

const LOOPBACK = /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\//;

/** Every request that would leave the machine (OpenStreetMap tiles above all) fails at once. */
export async function keepOnLoopback(context: BrowserContext) {
  await context.route(
    (url) => !LOOPBACK.test(url.href) && !url.href.startsWith("data:") && !url.href.startsWith("blob:"),
    (route) => route.abort("blockedbyclient"),
  );
}

let app: Credentials | undefined;
async function sandboxApp(): Promise<Credentials> {
  app ??= (await createPartnerApp(`E2E driver site ${process.pid}`, "http://127.0.0.1:9/callback")).sandbox;
  return app;
}

async function json(res: Response, what: string) {
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${text}`);
  return JSON.parse(text);
}

const wireTime = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}Z$/, "+0000");

export type DataSet = {
  timestamp: string;
  ignitionStatus: "ON" | "RUNNING" | "OFF";
  datum: { timestamp: string; key: string; value: string | number }[];
};

export function dataSet(
  at: Date,
  ignitionStatus: DataSet["ignitionStatus"],
  lat: number,
  lon: number,
  speed?: number,
): DataSet {
  const datum: DataSet["datum"] = [
    { timestamp: wireTime(at), key: "GEN_WAYPOINT", value: `${lat.toFixed(6)},${lon.toFixed(6)}` },
  ];
  if (speed !== undefined) datum.push({ timestamp: wireTime(at), key: "GEN_SPEED", value: speed });
  return { timestamp: wireTime(at), ignitionStatus, datum };
}

export type Driver = {
  username: string;
  password: string;
  accountId: number;
  token: string;
  /** A vehicle of the driver's; `fields` as POST /vehicle/ takes them (a deviceId). */
  addVehicle(label: string, fields?: Record<string, unknown>): Promise<number>;
  post(vehicleId: number, sets: DataSet[]): Promise<void>;
};

/** A fresh sandbox driver with a unique username. */
export async function newDriver(tag: string, overrides: Record<string, string> = {}): Promise<Driver> {
  const creds = await sandboxApp();
  const basic = `Basic ${Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString("base64")}`;
  const tokenUrl = `${baseUrl()}/sandbox/oauth/token`;
  const form = { "Content-Type": "application/x-www-form-urlencoded", Authorization: basic };
  const { access_token: clientToken } = await json(
    await fetch(tokenUrl, { method: "POST", headers: form, body: "grant_type=client_credentials" }),
    "client token",
  );
  const username = `e2e.${tag}.${Date.now().toString(36)}.${Math.random().toString(36).slice(2, 7)}`;
  const password = "e2e-password-1";
  const { account } = await json(
    await fetch(`${baseUrl()}/sandbox/api/account/`, {
      method: "POST",
      headers: { Authorization: `Bearer ${clientToken}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        firstName: "Dana",
        lastName: "Driver",
        username,
        password,
        email: "dana@example.com",
        timeZone: "America/New_York",
        ...overrides,
      }),
    }),
    "account create",
  );
  const { access_token: token } = await json(
    await fetch(tokenUrl, {
      method: "POST",
      headers: form,
      body: `grant_type=authorization_code&code=${account.accessToken.code}`,
    }),
    "code exchange",
  );
  const auth = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
  return {
    username,
    password,
    accountId: account.id,
    token,
    addVehicle: async (label, fields = {}) =>
      (
        await json(
          await fetch(`${baseUrl()}/sandbox/api/vehicle/`, {
            method: "POST",
            headers: auth,
            body: JSON.stringify({ label, ...fields }),
          }),
          "vehicle",
        )
      ).vehicle.vehicleId,
    post: async (vehicleId, sets) => {
      for (let i = 0; i < sets.length; i += 500) {
        await json(
          await fetch(`${baseUrl()}/sandbox/api/vehicle/${vehicleId}/dataSet/`, {
            method: "POST",
            headers: auth,
            body: JSON.stringify(sets.slice(i, i + 500)),
          }),
          "data sets",
        );
      }
    },
  };
}

/**
 * Signs a sandbox driver in and opens `next`. The session is made the way the sign-in form makes it
 * (next-auth's CSRF token, then its `password` provider's callback), from the page's own context,
 * so the browser holds the session cookie; the form itself, a page load and its hydration for
 * every test, is walked by the specs whose subject it is (demo-sign-in, authorize, site-polish).
 */
export async function signIn(page: Page, driver: Pick<Driver, "username" | "password">, next = "/map") {
  const request = page.context().request;
  const csrf = await request.get("/api/auth/csrf");
  expect(csrf.status()).toBe(200);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const signedIn = await request.post("/api/auth/callback/password", {
    form: { csrfToken, environment: "sandbox", username: driver.username, password: driver.password, json: "true" },
    maxRedirects: 0,
  });
  expect(signedIn.status(), await signedIn.text()).toBe(200);
  expect((await page.context().cookies()).some((c) => c.name.endsWith("next-auth.session-token"))).toBe(true);
  await page.goto(next);
  await expect(page).toHaveURL((url) => url.pathname === next);
}

/**
 * A screenshot for the run's artifacts: the whole page, or only what the window shows where the
 * page is very long (the API reference: measured 2–6.5 s a whole-page shot, about 0.1 s the window's).
 * JPEG: a whole-page shot of a guide took 310 ms as PNG and 160 ms as JPEG (about 70 shots a run).
 */
export async function shot(page: Page, name: string, { fullPage = true }: { fullPage?: boolean } = {}) {
  await page.screenshot({ path: test.info().outputPath(`${name}.jpeg`), fullPage, quality: 85 });
}

/** The centre of a vehicle's marker on the screen. */
export async function markerCentre(page: Page, vehicleId: number) {
  const marker = page.locator(`[data-vehicle-id="${vehicleId}"][data-latitude]`);
  // Read in one retried step: a live update replaces the marker's element (its icon changed), and
  // a box asked for just after the visibility check would then find none.
  let box: { x: number; y: number; width: number; height: number } | null = null;
  await expect.poll(async () => (box = await marker.boundingBox())).not.toBeNull();
  const { x, y, width, height } = box!;
  return { x: x + width / 2, y: y + height / 2 };
}

/**
 * Script errors and console errors of a page, except failed resource loads (the refused map
 * tiles): a hydration mismatch or an exception in a component shows up here.
 */
export function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource"))
      errors.push(`console: ${message.text()}`);
  });
  return errors;
}

/**
 * Waits until React has hydrated `locator`'s element, so that a click meets its handler. Before
 * that, a console form posts without JavaScript (the server's plain reveal page, not the form's),
 * and a link loads a whole page whose forms are the server's HTML again for a moment. react-dom
 * marks every element it has hydrated with a `__reactProps$…` property (its own, not an API:
 * this is a test's probe). Surer than waiting for the network to go idle, which guesses.
 */
export async function hydrated(locator: Locator) {
  await expect
    .poll(() => locator.evaluate((element) => Object.keys(element).some((key) => key.startsWith("__reactProps$"))))
    .toBe(true);
}
