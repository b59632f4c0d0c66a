// The service's own processes run compiled JavaScript: each entry point below is bundled by esbuild
// into .build/<name>.mjs (our code in one file; packages stay imports, loaded from node_modules), and
// the npm scripts run that file with node (docs/operations.md#what-the-processes-run,
// docs/decisions/0132-compiled-processes.md). Plain JavaScript, so that it runs before anything is
// compiled and without tsx.
//
// A bundle behaves as its script does under tsx:
// - `server-only` is an empty module (what scripts/lib/server-only.mjs's hook makes of it);
// - tsconfig.json's paths (`@/…`) are honoured;
// - `import.meta.url`, `import.meta.filename` and `import.meta.dirname` in a module of ours are its
//   source file's, found relative to the bundle (db/migrate.ts finds db/migrations/, scripts/start.ts
//   the root), so the checkout can move as a whole.
//
// Compiling is skipped while every bundle is newer than each file it was made from (and this file and
// tsconfig.json). Two processes may compile at once (npm start and npm run worker side by side): each
// writes files of its own and renames them into place.
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..", "..");

/** Where the bundles go (git-ignored). */
const BUILD_DIR = path.join(root, ".build");

/**
 * The entry points the npm scripts run compiled, in scripts/. A new process is one more name here
 * and a script `node scripts/compile.mjs && node .build/<name>.mjs`.
 */
export const COMPILED_SCRIPTS = ["start.ts", "worker.ts", "gateway.ts", "app-create.ts", "retention.ts", "device.ts"];

/** The files besides the bundles' own inputs whose change makes every bundle stale. */
const SETTINGS = [path.join(root, "tsconfig.json"), import.meta.filename];
const INPUTS_FILE = path.join(BUILD_DIR, "inputs.json");

/** The bundle of `scripts/<script>` (e.g. "start.ts" → .build/start.mjs). */
export function bundlePath(script) {
  return path.join(BUILD_DIR, script.replace(/\.ts$/, ".mjs"));
}

const mtimeMs = (file) => {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return Infinity; // gone: whatever was made from it is stale
  }
};

/** Every bundle exists and is newer than each of its inputs (as recorded when it was made) and the settings. */
export function bundlesAreCurrent() {
  let inputs;
  try {
    inputs = JSON.parse(fs.readFileSync(INPUTS_FILE, "utf8"));
  } catch {
    return false;
  }
  const settingsAt = Math.max(...SETTINGS.map(mtimeMs));
  return COMPILED_SCRIPTS.every((script) => {
    const made = inputs[path.basename(bundlePath(script))];
    if (!Array.isArray(made)) return false;
    const builtAt = fs.existsSync(bundlePath(script)) ? fs.statSync(bundlePath(script)).mtimeMs : 0;
    return builtAt > settingsAt && made.every((file) => mtimeMs(path.join(root, file)) < builtAt);
  });
}

/** `server-only` resolves to an empty module. */
const serverOnly = {
  name: "server-only",
  setup(build) {
    build.onResolve({ filter: /^server-only$/ }, () => ({ path: "server-only", namespace: "empty-module" }));
    build.onLoad({ filter: /.*/, namespace: "empty-module" }, () => ({ contents: "", loader: "js" }));
  },
};

// Named once in each bundle by the banner, for the rewritten `import.meta.filename`/`dirname`.
const BANNER = [
  'import { fileURLToPath as __compiledFileURLToPath } from "node:url";',
  'import { dirname as __compiledDirname } from "node:path";',
].join("\n");

/** Each module's own `import.meta.url`, `filename` and `dirname`, relative to the bundle's place. */
const ownFileMeta = {
  name: "own-file-meta",
  setup(build) {
    build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const text = fs.readFileSync(args.path, "utf8");
      if (!/import\.meta\.(url|filename|dirname)/.test(text)) return undefined;
      const relative = path.relative(BUILD_DIR, args.path).split(path.sep).map(encodeURIComponent).join("/");
      const url = `new URL(${JSON.stringify(relative)}, import.meta.url)`;
      const loader = /\.[cm]?tsx?$/.test(args.path) ? (args.path.endsWith("x") ? "tsx" : "ts") : "js";
      return {
        loader,
        resolveDir: path.dirname(args.path),
        contents: text
          .replaceAll("import.meta.url", `${url}.href`)
          .replaceAll("import.meta.filename", `__compiledFileURLToPath(${url})`)
          .replaceAll("import.meta.dirname", `__compiledDirname(__compiledFileURLToPath(${url}))`),
      };
    });
  },
};

/**
 * esbuild's options for bundles of these entry points in .build/, as the compiled scripts are made. The
 * benchmarks' baseline app's process is bundled with them too (bench/lib/baseline.ts), so that it runs as
 * the service's processes do.
 */
export function bundleOptions(entryPoints) {
  return {
    entryPoints,
    absWorkingDir: root,
    outdir: BUILD_DIR,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    tsconfig: path.join(root, "tsconfig.json"),
    banner: { js: BANNER },
    plugins: [serverOnly, ownFileMeta],
    logLevel: "warning",
  };
}

/**
 * Bundles every compiled script unless all are current (`force`: regardless). Resolves with whether it
 * compiled. Says so on stderr (stdout is a command's answer: app:create --json).
 */
export async function compileScripts({ force = false } = {}) {
  if (!force && bundlesAreCurrent()) return false;
  // Each bundle is dated when its sources were read: a source saved during the build is newer, so
  // the next check compiles again.
  const startedAt = new Date();
  // Loaded only to compile: a start that finds the bundles current does not pay for it.
  const { build } = await import("esbuild");
  const result = await build({
    ...bundleOptions(COMPILED_SCRIPTS.map((s) => path.join(root, "scripts", s))),
    metafile: true,
    write: false,
  });
  fs.mkdirSync(BUILD_DIR, { recursive: true });
  const inputs = {};
  for (const [output, { inputs: made }] of Object.entries(result.metafile.outputs)) {
    inputs[path.basename(output)] = Object.keys(made).filter((file) => !file.includes(":"));
  }
  const files = [
    ...result.outputFiles.map((f) => ({ path: f.path, contents: f.contents })),
    { path: INPUTS_FILE, contents: `${JSON.stringify(inputs, null, 2)}\n` },
  ];
  for (const file of files) {
    const temporary = `${file.path}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, file.contents);
    fs.utimesSync(temporary, startedAt, startedAt);
    fs.renameSync(temporary, file.path);
  }
  console.error(
    `Compiled ${COMPILED_SCRIPTS.join(", ")} into ${path.relative(process.cwd(), BUILD_DIR) || "."}/ (${Date.now() - startedAt.getTime()} ms)`,
  );
  return true;
}
