// `node scripts/compile.mjs [--force]`: the compiled scripts' bundles in .build/, made from the current
// sources unless they already are (scripts/lib/compile.mjs). The npm scripts that run a process call
// it first; `npm run build` makes them with the Next.js build.
import { compileScripts } from "./lib/compile.mjs";

try {
  await compileScripts({ force: process.argv.includes("--force") });
} catch (error) {
  // esbuild has printed the errors themselves.
  console.error(`compiling the scripts failed: ${error instanceof Error ? error.message.split("\n")[0] : error}`);
  process.exit(1);
}
