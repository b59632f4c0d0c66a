import os from "node:os";

// Benchmark figures say something only on a quiet machine: on 2 cores at load 2–10 a route that
// served 1,293 req/s gave 109–242 (docs/benchmarks.md). Every benchmark prints the load average
// when it starts and when it ends, beside its figures, and warns when the start was above
// BUSY_PER_CORE × cores (1.5 on 2 cores): then other work was running and the figures are not
// comparable with a quiet run's. The end is printed, not judged: a benchmark that keeps every
// core busy lifts it above the line by itself.

const BUSY_PER_CORE = 0.75;

export type Load = { one: number; five: number; fifteen: number; busy: boolean };

/** The load average now, and whether it is above the busy line. */
export function loadNow(): Load {
  const [one = 0, five = 0, fifteen = 0] = os.loadavg();
  return { one: round(one), five: round(five), fifteen: round(fifteen), busy: one > BUSY_PER_CORE * os.cpus().length };
}

const round = (x: number) => Math.round(x * 100) / 100;

function loadLine(when: string): { line: string; busy: boolean } {
  const { one, five, fifteen, busy } = loadNow();
  const limit = BUSY_PER_CORE * os.cpus().length;
  return {
    line:
      `load average at ${when}: ${one.toFixed(2)} ${five.toFixed(2)} ${fifteen.toFixed(2)} (1, 5, 15 min; ` +
      `${os.cpus().length} cores, busy above ${limit.toFixed(1)})`,
    busy,
  };
}

/** Prints the load now and again when the process exits, with a warning when the machine was busy. */
export function reportLoad(name: string): void {
  const start = loadLine("start");
  console.log(`${name}: ${start.line}`);
  process.once("exit", () => {
    const end = loadLine("end");
    console.log(`${name}: ${end.line}`);
    if (start.busy) {
      console.log(
        `${name}: WARNING: the machine was busy (load above ${(BUSY_PER_CORE * os.cpus().length).toFixed(1)} ` +
          `at the start): other work ran beside this benchmark, its figures are not comparable with a quiet ` +
          `run's`,
      );
    }
  });
}
