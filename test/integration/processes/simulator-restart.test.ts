// @module-tag embedded
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import {
  freePort,
  runScript,
  serviceEnv,
  spawnApp,
  stopProcess,
  waitForHealth,
  type ServiceEnv,
} from "@/test/helpers/processes";
import type { TestApp } from "@/test/integration/global-setup";
import { freshDatabase } from "@/test/helpers/fresh-database";

// A real-time run survives a restart of the service process: its state is in the database, and
// the loop of the restarted process picks it up where it was, posting the data sets that fell
// due while it was down with their own timestamps (as a device does after losing its link).
// This test runs its own service (the suite's shared one would drive the run while this one is
// down): on a fresh PostgreSQL database when the suite runs on PostgreSQL, else embedded.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "wayline-sim-restart-"));
let dropDatabase: (() => Promise<void>) | null = null;

async function databaseUrl(): Promise<string | undefined> {
  if (inject("embedded")) return undefined;
  const database = await freshDatabase(inject("databaseUrl"), "sim_restart");
  dropDatabase = database.drop;
  return database.url;
}

afterAll(async () => {
  await dropDatabase?.();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function call(base: string, method: string, url: string, token: string, body?: unknown) {
  const res = await fetch(`${base}/sandbox/api${url}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as any;
  if (res.status !== 200) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function launch(env: ServiceEnv, base: string) {
  const service = spawnApp(env);
  await waitForHealth(base, service.child, service.output);
  return service;
}

describe("a real-time simulation across a restart of the service", () => {
  it(
    "resumes where it was: every data set of the schedule arrives once, in one open trip",
    { timeout: 240_000 },
    async () => {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const env = serviceEnv({ port, dataDir, databaseUrl: await databaseUrl() });
      let service = await launch(env, base);
      try {
        const app = JSON.parse(
          (
            await runScript(
              "app-create.ts",
              ["--name", "Restart test", "--redirect-uri", "https://partner.example/callback", "--json"],
              env,
            )
          ).stdout,
        ) as TestApp;
        const basic = `Basic ${Buffer.from(`${app.sandbox.clientId}:${app.sandbox.clientSecret}`).toString("base64")}`;
        const token = async (form: string) =>
          (
            (await (
              await fetch(`${base}/sandbox/oauth/token`, {
                method: "POST",
                headers: { Authorization: basic, "Content-Type": "application/x-www-form-urlencoded" },
                body: form,
              })
            ).json()) as { access_token: string }
          ).access_token;
        const clientToken = await token("grant_type=client_credentials");
        const { account } = await call(base, "POST", "/account/", clientToken, {
          firstName: "Re",
          lastName: "Start",
          username: `restart.${Date.now()}`,
          password: "restart-password",
        });
        const userToken = await token(`grant_type=authorization_code&code=${account.accessToken.code}`);
        const { vehicle } = await call(base, "POST", "/vehicle/", userToken, { label: "Restarted car" });

        const { simulation: run } = await call(base, "POST", `/vehicle/${vehicle.vehicleId}/simulation/`, userToken, {
          mode: "realtime",
          templateId: "columbus-downtown-loop",
          collectionPeriod: 2,
          seed: 12,
        });
        const read = async () =>
          (await call(base, "GET", `/vehicle/${vehicle.vehicleId}/simulation/${run.id}`, userToken)).simulation;
        const waitFor = async (min: number) => {
          const deadline = Date.now() + 30_000;
          for (;;) {
            const current = await read();
            if (current.dataSetCount >= min) return current;
            if (Date.now() > deadline) throw new Error(`only ${current.dataSetCount} data sets`);
            await new Promise((r) => setTimeout(r, 250));
          }
        };
        const before = await waitFor(3);

        await stopProcess(service.child);
        const downAt = Date.now();
        await new Promise((r) => setTimeout(r, 6000));
        service = await launch(env, base);
        const downSeconds = (Date.now() - downAt) / 1000;

        // The data sets due while it was down (about one per 2 s) arrive, then it carries on.
        const after = await waitFor(before.dataSetCount + Math.floor(downSeconds / 2) + 2);
        expect(after.status).toBe("running");
        expect(after.tripId).toBe(before.tripId);
        expect(after.progress).toBeGreaterThan(before.progress);

        const { dataSet: sets } = await call(
          base,
          "GET",
          `/vehicle/${vehicle.vehicleId}/dataSet/?sortOrder=asc&searchLimit=500`,
          userToken,
        );
        const times = sets.map((s: { timestamp: string }) =>
          Date.parse(s.timestamp.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)\+0000$/, "$1-$2-$3T$4:$5:$6Z")),
        );
        expect(sets[0].ignitionStatus).toBe("ON");
        expect(sets.slice(1).every((s: { ignitionStatus: string }) => s.ignitionStatus === "RUNNING")).toBe(true);
        // The schedule, unbroken: one data set every 2 s from the ON, none missing, none twice.
        times.forEach((t: number, i: number) => expect(t - times[0]).toBe(i * 2000));
        expect(times.length).toBeGreaterThanOrEqual(after.dataSetCount);
        const trips = await call(base, "GET", `/vehicle/${vehicle.vehicleId}/trip/`, userToken);
        expect(trips.totalRecords).toBe(1);
        expect(trips.trip[0].endTime).toBeNull();

        await call(base, "DELETE", `/vehicle/${vehicle.vehicleId}/simulation/${run.id}`, userToken);
      } finally {
        await stopProcess(service.child);
      }
    },
  );
});
