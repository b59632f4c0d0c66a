import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { request } from "@/test/helpers/api";
import { waitFor } from "@/test/helpers/delivery-fixture";
import { verifyWebhook, type ReceivedRequest } from "@/test/helpers/https-receiver";
import { CALLBACK, newDriver, webApp } from "@/test/helpers/oauth-flow";
import { redirectParams } from "@/test/helpers/browser";
import { partnerOnPool, type PartnerOnPool } from "@/test/helpers/pool";
import { freePort, root } from "@/test/helpers/processes";
import { REFERENCE_BUNDLE_VERSION } from "@/server/openapi/reference-bundle";

// Every example of the guides (docs/guides/*.md) that is marked `run` is executed here, as
// written, against a running service: the shell blocks in one bash session per guide (variables
// carry from block to block, as in a reader's terminal), the receivers of the signature guide as
// real servers fed a real signed webhook. Only the reader's own values are put in: the service's
// origin, the app's credentials, the receiver URL. The service is the pool's shared app with the
// delivery worker on, the partner app the file's own; the file sits in processes/ for the processes
// a reader starts (the shell sessions, the receivers, `wayline listen`).

type Block = { lang: string; file?: string; code: string };

function runnableBlocks(guide: string): Block[] {
  const markdown = fs.readFileSync(path.join(root, "docs", "guides", `${guide}.md`), "utf8");
  return [...markdown.matchAll(/^```(\w+)([^\n]*)\n([\s\S]*?)^```$/gm)]
    .filter((m) => m[2]!.split(/\s+/).includes("run"))
    .map((m) => ({ lang: m[1]!, file: /file=(\S+)/.exec(m[2]!)?.[1], code: m[3]! }));
}

type Vars = Record<string, string>;

/** Runs one shell block with the session's variables; returns its output and the variables after it. */
function runShell(
  code: string,
  vars: Vars,
): Promise<{ status: number | null; stdout: string; stderr: string; vars: Vars }> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-euo", "pipefail", "-c", `set -a\n${code}\nenv -0 >&3`], {
      env: { NODE_ENV: "production", PATH: process.env.PATH!, HOME: os.tmpdir(), ...vars },
      stdio: ["ignore", "pipe", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const env: Buffer[] = [];
    child.stdout!.on("data", (c: Buffer) => out.push(c));
    child.stderr!.on("data", (c: Buffer) => err.push(c));
    (child.stdio[3] as NodeJS.ReadableStream).on("data", (c: Buffer) => env.push(c));
    child.on("error", reject);
    child.on("close", (status) => {
      const after = Object.fromEntries(
        Buffer.concat(env)
          .toString("utf8")
          .split("\0")
          .filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line))
          .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
      );
      resolve({
        status,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
        vars: { ...vars, ...after },
      });
    });
  });
}

/** Runs a guide's shell blocks in order; `before` may add what a person would do between two blocks (a browser step). */
async function runGuide(
  guide: string,
  start: Vars,
  before: (block: Block, vars: Vars) => Promise<Vars | void> = async () => {},
) {
  let vars = start;
  const outputs: string[] = [];
  const blocks = runnableBlocks(guide).filter((b) => b.lang === "bash");
  expect(blocks.length).toBeGreaterThan(0);
  for (const block of blocks) {
    vars = { ...vars, ...((await before(block, vars)) ?? {}) };
    const run = await runShell(block.code, vars);
    expect(run.status, `${guide}: ${block.code}\n${run.stdout}\n${run.stderr}`).toBe(0);
    // jq prints null for a member that is not there: a block that ran but read nothing.
    expect(run.stdout.trim(), `${guide}: ${block.code}`).not.toBe("");
    expect(run.stdout, `${guide}: ${block.code}`).not.toMatch(/^null$/m);
    outputs.push(run.stdout);
    vars = run.vars;
  }
  return { vars, outputs };
}

/**
 * Writes a guide's TypeScript block to a file inside the repository's node_modules (so that `@wayline/sdk`
 * resolves as it does for a reader with the package installed) and starts it with tsx.
 */
function startTypeScript(block: Block, env: Vars) {
  const dir = fs.mkdtempSync(path.join(root, "node_modules", ".cache-wayline-guide-"));
  const file = path.join(dir, block.file!);
  fs.writeFileSync(file, block.code);
  // An ES module, as in the reader's project (under node_modules the repository's "type" does not reach).
  fs.writeFileSync(path.join(dir, "package.json"), '{"type":"module"}\n');
  const child = spawn(process.execPath, ["--import", "tsx", file], {
    cwd: root,
    env: { NODE_ENV: "production", PATH: process.env.PATH!, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr.on("data", (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  return {
    child,
    output: () => output,
    exited,
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

let own: PartnerOnPool;
let hook: ReceivedRequest | undefined;
let quickstartVars: Vars = {};

beforeAll(async () => {
  own = await partnerOnPool("worker", "guides");
});

afterAll(async () => {
  await own?.stop();
});

describe("guides: every runnable example works against the service", () => {
  it("quickstart: credentials → account → vehicle → subscription → data set → a signed webhook arrives", async () => {
    const { app, receiver, partnerApp } = own;
    const start = {
      WAYLINE: app.baseUrl,
      CLIENT_ID: partnerApp.sandbox.clientId,
      CLIENT_SECRET: partnerApp.sandbox.clientSecret,
      WEBHOOK_URL: `${receiver.url}/webhooks/wayline`,
    };
    const { vars, outputs } = await runGuide("quickstart", start, async (block, vars) => {
      if (!block.code.includes("eventNotification")) return;
      // The reader's step 6: the webhook arrives at their receiver before they look for it.
      hook = await waitFor(async () => receiver.on("/webhooks/wayline")[0], {
        what: "the quickstart's webhook",
        timeoutMs: 30_000,
      });
      const body = verifyWebhook(partnerApp.signingSecret, hook) as Record<string, unknown>;
      expect(body).toMatchObject({
        _type: "WAYPOINT",
        vehicleId: Number(vars.VEHICLE_ID),
        recordedWaypoint: { latitude: 39.9612, longitude: -82.9988 },
      });
    });
    expect(hook).toBeDefined();
    expect(JSON.parse(outputs.at(-1)!)).toMatchObject({ _type: "WAYPOINT" });
    quickstartVars = vars;

    // Step 7: the same with the typed client, whose webhook arrives too.
    const block = runnableBlocks("quickstart").find((b) => b.lang === "ts")!;
    const before = receiver.on("/webhooks/wayline").length;
    const run = startTypeScript(block, start);
    try {
      expect(await run.exited, run.output()).toBe(0);
      expect(run.output()).toMatch(/^vehicle \d+: Grace's car$/m);
      await waitFor(async () => receiver.on("/webhooks/wayline").length > before, {
        what: "the TypeScript quickstart's webhook",
        timeoutMs: 30_000,
      });
    } finally {
      run.remove();
    }
  }, 120_000);

  it("webhooks on a laptop: wayline listen forwards a triggered event to the guide's TypeScript receiver", async () => {
    expect(quickstartVars.VEHICLE_ID, "the quickstart's vehicle").toBeTruthy();
    const blocks = runnableBlocks("webhook-signatures");
    const port = await freePort();
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "wayline-listen-guide-"));
    const vars = {
      PORT: String(port),
      VEHICLE_ID: quickstartVars.VEHICLE_ID!,
      WEBHOOK_SECRET: own.partnerApp.signingSecret,
      WAYLINE_URL: own.app.baseUrl,
      WAYLINE_CLIENT_ID: own.partnerApp.sandbox.clientId,
      WAYLINE_CLIENT_SECRET: own.partnerApp.sandbox.clientSecret,
      WAYLINE_SIGNING_SECRET: own.partnerApp.signingSecret,
      WAYLINE_STATE_FILE: path.join(stateDir, "listen.json"),
    };
    const receiver = startTypeScript(
      blocks.find((b) => b.lang === "ts")!,
      vars,
    );
    const listenBlock = blocks.find((b) => b.lang === "bash" && /\blisten\b/.test(b.code))!;
    // The listen block runs until stopped: in a process group of its own, stopped by its id at the end.
    const listen = spawn("bash", ["-euo", "pipefail", "-c", listenBlock.code], {
      env: { NODE_ENV: "production", PATH: process.env.PATH!, HOME: os.tmpdir(), ...vars },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let listenOutput = "";
    listen.stdout.on("data", (c: Buffer) => (listenOutput += c.toString()));
    listen.stderr.on("data", (c: Buffer) => (listenOutput += c.toString()));
    try {
      await waitFor(async () => listenOutput.includes("Forwarding"), { what: "wayline listen", timeoutMs: 30_000 });
      const triggerBlock = blocks.find((b) => b.lang === "bash" && b.code.includes("wayline trigger"))!;
      const run = await runShell(triggerBlock.code, vars);
      expect(run.status, run.stdout + run.stderr).toBe(0);
      await waitFor(async () => receiver.output().includes(`WAYPOINT for vehicle ${quickstartVars.VEHICLE_ID}`), {
        what: "the receiver's line",
        timeoutMs: 30_000,
      });
      await waitFor(async () => /WAYPOINT \d+ vehicle \d+ {2}-> 204/.test(listenOutput), { what: "listen's line" });
    } finally {
      process.kill(-listen.pid!, "SIGTERM");
      receiver.child.kill();
      receiver.remove();
      fs.rmSync(stateDir, { recursive: true, force: true });
    }
  }, 120_000);

  it.each([
    ["js", "node"],
    ["python", "python3"],
  ])(
    "webhook signatures: the %s receiver accepts the real webhook (204) and refuses a tampered one (400)",
    async (lang, runtime) => {
      expect(hook, "the quickstart's webhook").toBeDefined();
      const received = hook!;
      const block = runnableBlocks("webhook-signatures").find((b) => b.lang === lang)!;
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wayline-guide-"));
      const file = path.join(dir, block.file!);
      fs.writeFileSync(file, block.code);
      const port = await freePort();
      const child = spawn(runtime, [file], {
        env: {
          NODE_ENV: "production",
          PATH: process.env.PATH!,
          WEBHOOK_SECRET: own.partnerApp.signingSecret,
          PORT: String(port),
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (c: Buffer) => (output += c.toString()));
      child.stderr.on("data", (c: Buffer) => (output += c.toString()));
      try {
        const headers = {
          "content-type": "application/json",
          "webhook-id": received.headers["webhook-id"]!,
          "webhook-timestamp": received.headers["webhook-timestamp"]!,
          "webhook-signature": received.headers["webhook-signature"]!,
        };
        const post = (body: string) =>
          fetch(`http://127.0.0.1:${port}/webhooks/wayline`, { method: "POST", headers, body });
        const good = await waitFor(async () => post(received.body).catch(() => null), {
          what: `the ${lang} receiver listening`,
          timeoutMs: 20_000,
        });
        expect(good.status, output).toBe(204);
        const tampered = await post(received.body.replace('"WAYPOINT"', '"GEOFENCE"'));
        expect(tampered.status).toBe(400);
        const unsigned = await fetch(`http://127.0.0.1:${port}/`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: received.body,
        });
        expect(unsigned.status).toBe(400);
        await waitFor(async () => output.includes(`WAYPOINT for vehicle ${quickstartVars.VEHICLE_ID}`), {
          what: "the receiver's log line",
        });
      } finally {
        child.kill();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );

  it("simulator: templates, a real-time run read and stopped, an instant trip", async () => {
    expect(quickstartVars.TOKEN, "the quickstart's driver").toBeTruthy();
    const { outputs } = await runGuide("simulator", {
      WAYLINE: own.app.baseUrl,
      TOKEN: quickstartVars.TOKEN!,
      VEHICLE_ID: quickstartVars.VEHICLE_ID!,
    });
    expect(outputs[0]).toContain("columbus-downtown-loop");
    expect(JSON.parse(outputs[1]!)).toMatchObject({ status: "running" });
    expect(outputs[2]!.trim()).toBe("OK");
    expect(JSON.parse(outputs[3]!)).toMatchObject({ status: "finished" });
  }, 120_000);

  it("OAuth flows: client credentials, authorization code with PKCE (a driver allows in the browser), refresh, revocation", async () => {
    const creds = webApp("sandbox");
    const { browser } = await newDriver("sandbox");
    const start = {
      WAYLINE: inject("baseUrl"),
      CLIENT_ID: creds.clientId,
      CLIENT_SECRET: creds.clientSecret,
      REDIRECT_URI: CALLBACK,
    };
    const { outputs } = await runGuide("oauth", start, async (block, vars) => {
      if (!block.code.includes("$CODE")) return;
      // The driver's part: sign in, allow, and the browser lands on the redirect URI.
      const location = await browser.authorizeAndAllow(vars.AUTHORIZE_URL!);
      const got = redirectParams(location);
      expect(`${location.origin}${location.pathname}`).toBe(CALLBACK);
      expect(got.state).toBe(vars.STATE);
      return { CODE: got.code! };
    });
    expect(Number(outputs[0])).toBeGreaterThanOrEqual(0);
    expect(outputs[1]).toContain("/sandbox/OAuth/authorize?");
    expect(Number(outputs[2])).toBe(0);
    expect(JSON.parse(outputs[3]!)).toEqual({ token_type: expect.stringMatching(/^bearer$/i), expires_in: 86400 });
    expect(outputs[4]!.trim().split("\n").at(-1)).toBe("401");
  }, 120_000);

  it("each guide renders under /docs/guides/… with its code and without the run markers, and /docs links to it", async () => {
    const docs = await request("GET", `${inject("baseUrl")}/docs`);
    expect(docs.status).toBe(200);
    for (const slug of ["quickstart", "oauth", "webhook-signatures", "simulator"]) {
      expect(docs.text).toContain(`href="/docs/guides/${slug}"`);
      const page = await request("GET", `${inject("baseUrl")}/docs/guides/${slug}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('<pre tabindex="0"><code class="language-');
      expect(page.text).not.toMatch(/language-\w+ run/);
      // The placeholder origin of the examples becomes this site's own.
      expect(page.text).not.toContain("https://wayline.example");
    }
    expect((await request("GET", `${inject("baseUrl")}/docs/guides/nope`)).status).toBe(404);
  });

  it("the reference's renderer is served from this origin", async () => {
    const bundle = await fetch(`${inject("baseUrl")}/docs/assets/api-reference.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get("content-type")).toContain("javascript");
    // The version in the bundle's URL (its cache key) is the one installed.
    expect(await bundle.text()).toContain(`@scalar/api-reference@${REFERENCE_BUNDLE_VERSION}`);
    expect((await fetch(`${inject("baseUrl")}/docs/assets/other.js`)).status).toBe(404);
  });
});
