import http from "node:http";
import { expect } from "vitest";
import { api, testSql } from "./api";
import { baseUrl, Browser } from "./browser";
import { driverWithVehicle } from "./telemetry";

// The driver site's downloads over real HTTP (/me/export, /me/access-log): a signed-in browser and
// its GET, the body as bytes; a download whose reader stops after the headers, and a driver with an
// export large enough to stay being written while it does.

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

export type StalledDownload = {
  status: number;
  /** Reads the rest of the body; its length in bytes. */
  finish(): Promise<number>;
  /** Hangs up without reading the rest (a driver who closed the tab). */
  abort(): void;
};

/**
 * A GET whose body is not read after the headers: node:http stops taking bytes from the socket
 * once its small buffer is full, so a body larger than what the socket buffers hold stays being
 * written, by a server that waits, until finish() or abort().
 */
export function stalledDownload(browser: Browser, path: string, base = baseUrl()): Promise<StalledDownload> {
  return new Promise((resolve, reject) => {
    const req = http.get(base + path, { headers: downloadHeaders(browser), agent: false }, (res) => {
      res.pause();
      resolve({
        status: res.statusCode ?? 0,
        finish: () =>
          new Promise((done, failed) => {
            let bytes = 0;
            res.on("data", (chunk: Buffer) => (bytes += chunk.length));
            res.on("end", () => done(bytes));
            res.on("error", failed);
            res.resume();
          }),
        abort: () => req.destroy(),
      });
    });
    req.on("error", reject);
  });
}

/** Enough data that the ZIP (about 4 MB: random values deflate poorly; 1 MB was seen to be enough) outlasts what the sockets buffer. */
const POINTS = 90_000;

/** A driver whose export outlasts a stalled reader (export-one-at-a-time*.test.ts). */
export async function driverWithBigExport() {
  const driver = await driverWithVehicle();
  // A data set holds at most 32,767 positions: the points go into six sets of 15,000.
  const sets = Array.from({ length: 6 }, (_, i) => ({
    timestamp: `2026010${i + 1}T120000+0000`,
    ignitionStatus: "RUNNING",
    datum: [{ key: "GEN_SPEED", value: 1 }],
  }));
  const posted = await api("sandbox").post(`/vehicle/${driver.vehicleId}/dataSet/`, sets, driver.accessToken);
  expect(posted.status, posted.text).toBe(200);
  const ids = (posted.body.dataSet as { id: number }[]).map((d) => String(d.id));
  await testSql()`insert into data_points (vehicle_id, data_set_id, position, recorded_at, key, value)
    select ${driver.vehicleId}, s.id, 100 + i, s.recorded_at, 'GEN_NOTE', md5(i::text) || md5(s.id::text || i::text)
      from (select id, recorded_at from data_sets where id = any(${ids}::bigint[])) as s,
           generate_series(1, ${POINTS / 6}) as i`;
  return driver;
}
