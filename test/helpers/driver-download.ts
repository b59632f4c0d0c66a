import { expect } from "vitest";
import { baseUrl, Browser } from "./browser";

// The driver site's downloads over real HTTP (/me/export, /me/access-log): a signed-in browser and
// its GET, the body as bytes.

export const DRIVER_PASSWORD = "correct-horse-1";

export async function signedIn(username: string) {
  const browser = new Browser();
  expect((await browser.signIn("sandbox", username, DRIVER_PASSWORD)).problem).toBeNull();
  return browser;
}

export async function downloadBytes(browser: Browser, path: string, base = baseUrl()) {
  const res = await fetch(base + path, { headers: downloadHeaders(browser), redirect: "manual" });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

function downloadHeaders(browser: Browser) {
  const headers: Record<string, string> = { "X-Forwarded-For": browser.address };
  if (browser.cookies.size > 0) headers.Cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  return headers;
}
