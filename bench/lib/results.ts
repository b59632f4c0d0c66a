import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadNow, type Load } from "./load";

// What a benchmark run measured, kept as a file beside the code (bench/results/<benchmark>/), so the
// table in docs/benchmarks.md is generated from runs rather than typed (bench/table.ts), and
// the page holds only the newest figures while the runs behind them stay in the repository.

const RESULTS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../results");

type Figure = {
  /** What was measured, as the table shows it: "(b) batches of 500 / PostgreSQL alone". */
  figure: string;
  /** The value as printed, with its unit: "0.74", "39,505 points/s", "279 ms". */
  value: string;
  /** The target as the docs set it ("≥ 0.6"), or null where it is only measured. */
  target: string | null;
  /** Whether the value meets the target; null without one. */
  met: boolean | null;
};

export type Result = {
  benchmark: string;
  date: string;
  commit: string;
  machine: { cores: number; cpu: string; memoryGiB: number };
  load: { start: Load; end: Load };
  /** The load was above the benchmarks' busy line when the run started: the figures are not quoted. */
  busy: boolean;
  figures: Figure[];
  /** Set only on a run recorded before the benchmark wrote files: where its figures were copied from. */
  source?: string;
  /**
   * BENCH_VARIANT: the run measured another build for comparison ("postgres.js 3.4.9", run from a
   * checkout of the commit before an upgrade). Kept beside the others; the table shows none of them.
   */
  variant?: string;
};

function commitNow(): string {
  try {
    const head = execFileSync("git", ["rev-parse", "--short=7", "HEAD"], { encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { encoding: "utf8" }).trim();
    return dirty ? `${head}+changes` : head;
  } catch {
    return "unknown";
  }
}

/** Collects a run's figures and writes them when the benchmark ends (only if it recorded any). */
export function resultRecorder(benchmark: string) {
  const start = loadNow();
  const figures: Figure[] = [];
  return {
    figure(figure: string, value: string, target: string | null = null, met: boolean | null = null) {
      figures.push({ figure, value, target, met });
    },
    /** Writes bench/results/<benchmark>/<time>.json and returns its path. */
    save(): string | null {
      if (figures.length === 0) return null;
      const end = loadNow();
      const date = new Date().toISOString();
      const result: Result = {
        benchmark,
        date,
        commit: commitNow(),
        machine: {
          cores: os.cpus().length,
          cpu: os.cpus()[0]?.model.trim() ?? "unknown",
          memoryGiB: Math.round(os.totalmem() / 2 ** 30),
        },
        load: { start, end },
        busy: start.busy,
        figures,
        ...(process.env.BENCH_VARIANT ? { variant: process.env.BENCH_VARIANT } : {}),
      };
      const dir = path.join(RESULTS_DIR, benchmark.replace(/^bench:/, ""));
      fs.mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `${date.replace(/[:.]/g, "-")}.json`);
      fs.writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
      console.log(`${benchmark}: figures written to ${path.relative(process.cwd(), file)}`);
      return file;
    },
  };
}
