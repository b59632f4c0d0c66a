// `npm run build` (and `npm pack`, through prepack): the package's ESM and declarations into dist/ by tsc
// (tsconfig.build.json), from a clean dist/ so no file of a removed module ships. tsc writes plain files:
// the `wayline` bin is made executable here, since the workspace's link to it in node_modules/.bin may have
// been made before dist/ existed (a fresh install builds in the root's prepare, after linking).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const here = import.meta.dirname;
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

fs.rmSync(path.join(here, "dist"), { recursive: true, force: true });
const run = spawnSync(process.execPath, [tsc, "-p", path.join(here, "tsconfig.build.json")], { stdio: "inherit" });
if (run.status !== 0) process.exit(run.status ?? 1);
fs.chmodSync(path.join(here, "dist", "cli", "main.js"), 0o755);
