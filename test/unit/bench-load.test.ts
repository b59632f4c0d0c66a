import { spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";

// bench/lib/load.ts: every benchmark prints the load average at its start and at its end, and a
// warning when the machine was busy then (its figures are not comparable with a quiet run's).
it("a benchmark prints the load average at its start and end, and warns exactly when it was above 0.75 a core", () => {
  const root = path.resolve(import.meta.dirname, "..", "..");
  const script = `import("./bench/lib/load.ts").then((m) => { m.reportLoad("bench:probe"); console.log("figures"); })`;
  const run = spawnSync(process.execPath, ["--import", "tsx", "-e", script], { cwd: root, encoding: "utf8" });
  expect(run.status, run.stderr).toBe(0);
  const lines = run.stdout.trim().split("\n");
  expect(lines[0]).toMatch(
    /^bench:probe: load average at start: [\d.]+ [\d.]+ [\d.]+ \(1, 5, 15 min; \d+ cores, busy above [\d.]+\)$/,
  );
  expect(lines[1]).toBe("figures");
  expect(lines[2]).toMatch(/^bench:probe: load average at end: [\d.]+ /);
  const limit = 0.75 * os.cpus().length;
  const busy = [lines[0]!, lines[2]!].some((line) => Number(/: ([\d.]+) /.exec(line)![1]) > limit);
  expect(lines.some((line) => line.startsWith("bench:probe: WARNING: the machine was busy"))).toBe(busy);
});
