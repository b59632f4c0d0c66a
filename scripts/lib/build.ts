import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const SOURCES = [
  "app",
  "components",
  "common",
  "server",
  "db",
  "public",
  "next.config.js",
  "postcss.config.mjs",
  "package-lock.json",
  "tsconfig.json",
];

function newestMtime(entry: string): number {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(entry);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

const NEXT_BIN = path.resolve(import.meta.dirname, "..", "..", "node_modules", "next", "dist", "bin", "next");

/** The files and folders whose change makes the product's build in `root` stale. */
const productSources = (root: string) => SOURCES.map((s) => path.join(root, s));

// `npm start` builds when there is no production build or a source file is newer than it, so a
// newcomer never has to know that Next.js needs one. The build's folder is next.config.js's.
// `dir` is the Next.js app (the product, or the benchmarks' baseline app with its own sources).
export async function buildIfNeeded(dir: string, sources = productSources(dir)): Promise<void> {
  const builtAt = await builtAtMs(dir);
  if (await buildIsCurrent(dir, sources)) return;
  console.log(
    builtAt === 0
      ? "No production build yet: building (about a minute)…"
      : "Sources changed since the last build: rebuilding…",
  );
  const result = spawnSync(process.execPath, [NEXT_BIN, "build"], {
    cwd: dir,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0) throw new Error("next build failed");
}

/** When the production build was made (0: there is none). */
async function builtAtMs(dir: string): Promise<number> {
  const buildId = path.join(await buildDir(dir), "BUILD_ID");
  return fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
}

/** A production build exists and no source file is newer than it: `npm start` would not build again. */
export async function buildIsCurrent(dir: string, sources = productSources(dir)): Promise<boolean> {
  const changedAt = Math.max(...sources.map((s) => newestMtime(s)));
  return (await builtAtMs(dir)) > changedAt;
}

/** The production build's folder, as the app's next.config.js names it. */
export async function buildDir(dir: string): Promise<string> {
  const config = (await import(pathToFileURL(path.join(dir, "next.config.js")).href)) as {
    default: { distDir?: string };
  };
  return path.join(dir, config.default.distDir ?? ".next");
}
