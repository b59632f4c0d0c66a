import fs from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { launchService, runScript } from "../helpers/processes";

export type TestApp = { name: string; sandbox: { clientId: string; clientSecret: string }; production: { clientId: string; clientSecret: string } };

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    embedded: boolean;
    dataDir: string;
    apps: { main: TestApp; other: TestApp; provider: TestApp };
  }
}

// Starts the real service once for the integration suite: on the PostgreSQL named by
// DATABASE_URL (CI gives a fresh database), else on the embedded default in a fresh data dir.
// Partner apps are made with the real CLI, as an operator would.
export default async function setup(project: TestProject) {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const service = await launchService({ name: "it", databaseUrl });
  try {
    const create = async (name: string, extra: string[] = []) =>
      JSON.parse((await runScript("app-create.ts", ["--name", name, "--redirect-uri", "https://partner.example/callback", "--json", ...extra], service.env)).stdout) as TestApp;
    const apps = { main: await create("Integration main app"), other: await create("Integration other app"), provider: await create("Integration data provider", ["--data-provider"]) };
    const dbUrl = databaseUrl ?? (JSON.parse(fs.readFileSync(path.join(service.dataDir, "embedded-db.json"), "utf8")) as { url: string }).url;

    project.provide("baseUrl", service.baseUrl);
    project.provide("databaseUrl", dbUrl);
    project.provide("embedded", !databaseUrl);
    project.provide("dataDir", service.dataDir);
    project.provide("apps", apps);
  } catch (error) {
    await service.stop();
    throw error;
  }
  return service.stop;
}
