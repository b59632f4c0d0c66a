import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Result } from "../../bench/lib/results";
import { latestRuns, readResults, renderTable, replaceTable } from "../../bench/lib/results-table";

const root = path.resolve(import.meta.dirname, "../..");

const run = (date: string, busy: boolean, value: string): Result => ({
  benchmark: "bench:api",
  date,
  commit: "abc1234",
  machine: { cores: 2, cpu: "a CPU", memoryGiB: 24 },
  load: {
    start: { one: busy ? 3 : 0.2, five: 0, fifteen: 0, busy },
    end: { one: 0.3, five: 0, fifteen: 0, busy: false },
  },
  busy,
  figures: [{ figure: "ratio", value, target: "≥ 0.9", met: Number(value) >= 0.9 }],
});

describe("the benchmarks' table", () => {
  it("is the one the result files give (npm run bench:table writes it)", () => {
    const page = fs.readFileSync(path.join(root, "docs/benchmarks.md"), "utf8");
    expect(replaceTable(page, renderTable(readResults(path.join(root, "bench/results"))))).toBe(page);
  });

  it("shows each benchmark's newest quiet run, and a busy one only when no run was quiet", () => {
    const quiet = run("2026-12-01T10:00:00.000Z", false, "0.91");
    const busyLater = run("2026-12-02T10:00:00.000Z", true, "0.70");
    expect(latestRuns([busyLater, quiet])).toEqual([quiet]);
    expect(latestRuns([busyLater])).toEqual([busyLater]);
    const table = renderTable([busyLater]);
    expect(table).toContain(
      "| bench:api | ratio | 0.70 | ≥ 0.9 | **missed** | 2 cores, a CPU | 3.00 → 0.30 (busy) | 2026-12-02 | abc1234 |",
    );
  });

  it("never shows a variant's run, a build measured only to compare against", () => {
    const ours = run("2026-12-01T10:00:00.000Z", false, "0.81");
    const baseline = { ...run("2026-12-02T10:00:00.000Z", false, "0.78"), variant: "postgres.js 3.4.9" };
    expect(latestRuns([ours, baseline])).toEqual([ours]);
  });

  it("refuses a page without the table's markers", () => {
    expect(() => replaceTable("# Benchmarks\n", "| a |")).toThrow(/markers/);
  });
});
