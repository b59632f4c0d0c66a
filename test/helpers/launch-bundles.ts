import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";

// The processes the tests start (`npm start`'s entry, the worker, app:create, retention) run from
// esbuild bundles of their scripts rather than through tsx. Under tsx every one of our modules goes
// through its loader hooks at each launch: measured on this 2-core machine, a service's start
// took 4.6 CPU-seconds that way and 2.1 from a bundle, an app:create run 2.0 and 0.65, and a CI run
// launches such processes many times over in each pass (docs/testing.md#time-budget). A bundle holds our
// code only (packages stay imports, loaded from node_modules as before), is made from the current
// sources by the test run's global setup (esbuild takes about 0.4 s), which then names the folder in
// WAYLINE_LAUNCH_BUNDLES for the processes it starts (without it, as in the benchmarks, the scripts
// run through tsx), and behaves as the script does: `import.meta.url` keeps each module's own file,
// `server-only` is the empty module tsx's hook gives. `npm start` itself, through tsx, is what CI's
// front door runs, with the demo sign-in it prints.

const root = path.resolve(import.meta.dirname, "..", "..");
const SCRIPTS = ["start.ts", "worker.ts", "app-create.ts", "retention.ts"];
const OUT = path.join(root, "node_modules", ".cache", "wayline-launch");

/** Each module's own `import.meta.url` and `import.meta.dirname`, as when it runs from its file. */
const ownFileMeta: Plugin = {
  name: "own-file-meta",
  setup(build) {
    build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const text = fs.readFileSync(args.path, "utf8");
      if (!text.includes("import.meta.url") && !text.includes("import.meta.dirname")) return undefined;
      const loader = /\.[cm]?tsx?$/.test(args.path) ? (args.path.endsWith("x") ? "tsx" : "ts") : "js";
      return {
        loader,
        resolveDir: path.dirname(args.path),
        contents: text
          .replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href))
          .replaceAll("import.meta.dirname", JSON.stringify(path.dirname(args.path))),
      };
    });
  },
};

/** Bundles the launch scripts from the current sources and names them for the processes this one starts. */
export async function makeLaunchBundles(): Promise<void> {
  if (process.env.TEST_LAUNCH_BUNDLES === "0") return;
  const empty = path.join(OUT, "server-only.mjs");
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(empty, "export {};\n");
  const result = await build({
    entryPoints: SCRIPTS.map((s) => path.join(root, "scripts", s)),
    outdir: OUT,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    alias: { "server-only": empty },
    tsconfig: path.join(root, "tsconfig.json"),
    plugins: [ownFileMeta],
    // Files of their own per process, renamed into place: two test runs side by side bundle at once.
    write: false,
    logLevel: "silent",
  });
  for (const file of result.outputFiles) {
    const temporary = `${file.path}.${process.pid}`;
    fs.writeFileSync(temporary, file.contents);
    fs.renameSync(temporary, file.path);
  }
  process.env.WAYLINE_LAUNCH_BUNDLES = OUT;
}

/** The node arguments that run `scripts/<script>`: its bundle when this run made them, else through tsx. */
export function scriptArgs(script: string, tsNodeFlags: string[]): string[] {
  const bundles = process.env.WAYLINE_LAUNCH_BUNDLES;
  if (bundles && SCRIPTS.includes(script)) return [path.join(bundles, script.replace(/\.ts$/, ".mjs"))];
  return [...tsNodeFlags, path.join(root, "scripts", script)];
}
