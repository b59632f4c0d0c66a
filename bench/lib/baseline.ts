import { spawn } from "node:child_process";
import path from "node:path";
import { build } from "esbuild";
import { buildIfNeeded } from "../../scripts/lib/build";
import { bundleOptions } from "../../scripts/lib/compile.mjs";
import { root, serviceV8Flags, stopProcess, type ServiceEnv } from "../../test/helpers/processes";

// The bare side of bench:api and bench:ingest: the baseline app (bench/baseline/), a Next.js app of
// its own whose route handlers skip everything of ours. It is built here when its build is missing
// or older than its sources, and served by a process of its own behind the service's HTTP front,
// bundled as the service's processes are, with the node flags, the environment and so the database
// of the service it is compared with (docs/decisions/0134-benchmark-baselines-as-their-own-app.md).

const DIR = path.join(root, "bench", "baseline");
// Its build is stale when these change: its own files, and the product's code its handlers import.
const SOURCES = [
  ...["app", "next.config.js", "tsconfig.json"].map((s) => path.join(DIR, s)),
  ...["db", "server", "common", "next.config.js", "package-lock.json", "tsconfig.json"].map((s) => path.join(root, s)),
];

export type Baseline = { baseUrl: string; stop(): Promise<void> };

/** The baseline app on a free port beside `service` (its environment: the same database), healthy. */
export async function launchBaseline(service: { env: ServiceEnv }, timeoutMs = 60_000): Promise<Baseline> {
  await buildIfNeeded(DIR, SOURCES);
  // A second of esbuild at each launch; the bundle sits beside the service's in .build/.
  await build({ ...bundleOptions([path.join(DIR, "serve.ts")]), entryNames: "bench-baseline" });
  const dir = process.env.BENCH_CPU_PROF;
  const profile = dir ? ["--cpu-prof", `--cpu-prof-dir=${dir}`] : [];
  const child = spawn(
    process.execPath,
    [...serviceV8Flags, ...profile, path.join(root, ".build", "bench-baseline.mjs")],
    {
      cwd: root,
      env: { ...service.env, PORT: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const running = /^Baseline app running at (\S+)$/m.exec(output);
    if (running) return { baseUrl: running[1]!, stop: () => stopProcess(child) };
    if (child.exitCode !== null) throw new Error(`the baseline app exited with ${child.exitCode}:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  await stopProcess(child);
  throw new Error(`the baseline app did not start within ${timeoutMs} ms:\n${output}`);
}
