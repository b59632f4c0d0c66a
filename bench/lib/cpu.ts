import fs from "node:fs";
import type postgres from "postgres";

// Where a benchmark's core-seconds went, read from /proc (Linux): the service's node processes, the
// PostgreSQL server, this process (the load generator), and the rest of the machine. Throughput on
// a shared 2-core machine moves with everything else on it; CPU per unit of work moves much less,
// and how busy the machine was says whether a phase was bound by the CPU at all
// (docs/benchmarks.md#benchingest-cpu).

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux everywhere here). */
const TICK_MS = 10;

/** utime and stime of a process, and with `reaped` also its waited-for children's (cutime, cstime), in ticks. */
function ticks(pid: number, reaped = false): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  const own = Number(fields[11]) + Number(fields[12]);
  return reaped ? own + Number(fields[13]) + Number(fields[14]) : own;
}

/** The live children of a process, by pid. */
function children(pid: number): number[] {
  return fs
    .readdirSync(`/proc/${pid}/task`)
    .flatMap((task) => fs.readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(" ").filter(Boolean))
    .map(Number);
}

/** A process and its descendants (the HTTP processes node:cluster forks), by pid. */
function processTree(pid: number): number[] {
  return [pid, ...children(pid).flatMap(processTree)];
}

/**
 * Ticks of pids listed before a measurement. One that has exited reads as none: a process exiting
 * mid-measurement would take its CPU before with it (none does in these benchmarks: the service's
 * processes live as long as it does).
 */
const liveTicks = (pids: number[]) =>
  pids.reduce((sum, pid) => {
    try {
      return sum + ticks(pid);
    } catch {
      return sum;
    }
  }, 0);

/**
 * The machine's busy and total CPU time so far, in ticks summed over every core (/proc/stat; guest time is
 * already in user and nice, so it is not added again).
 */
export function machineTicks(): { busy: number; total: number } {
  const [, ...fields] = fs.readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields.map(Number) as number[];
  const busy = user! + nice! + system! + irq! + softirq! + steal!;
  return { busy, total: busy + idle! + iowait! };
}

/** This process's CPU so far, in ms. */
function ownMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/**
 * The PostgreSQL server's postmaster, by pid: the parent of its checkpointer (pg_stat_activity lists
 * every server process). Its CPU with its reaped children's, plus its live children's, is the whole
 * server's: backends, autovacuum workers come and gone, the WAL writer.
 */
export async function postmasterPid(sql: postgres.Sql): Promise<number> {
  const [row] = await sql<{ pid: number }[]>`select pid from pg_stat_activity where backend_type = 'checkpointer'`;
  if (!row) throw new Error("no checkpointer in pg_stat_activity: cannot find the PostgreSQL server's processes");
  const status = fs.readFileSync(`/proc/${row.pid}/status`, "utf8");
  return Number(/^PPid:\s+(\d+)/m.exec(status)![1]);
}

type Reading = { node: number; postgres: number; own: number; machine: { busy: number; total: number } };

/**
 * What the CPU was spent on between two readings, in ms summed over every core: node, PostgreSQL, this
 * process, the whole machine's busy time (the rest of it is other processes), and all of its time.
 */
export type CpuSpent = { nodeMs: number; postgresMs: number; ownMs: number; busyMs: number; machineMs: number };

/**
 * A CPU meter over the service's node process tree (servicePid) and the PostgreSQL server
 * (postmaster): `measure(run)` returns run's result and the CPU spent while it ran.
 */
export function cpuMeter(servicePid: number, postmaster: number) {
  const read = (nodePids: number[]): Reading => ({
    node: liveTicks(nodePids),
    postgres: ticks(postmaster, true) + liveTicks(children(postmaster)),
    own: ownMs(),
    machine: machineTicks(),
  });
  return async function measure<T>(run: () => Promise<T>): Promise<{ result: T; cpu: CpuSpent }> {
    const nodePids = processTree(servicePid);
    const before = read(nodePids);
    const result = await run();
    const after = read(nodePids);
    return {
      result,
      cpu: {
        nodeMs: (after.node - before.node) * TICK_MS,
        postgresMs: (after.postgres - before.postgres) * TICK_MS,
        ownMs: after.own - before.own,
        busyMs: (after.machine.busy - before.machine.busy) * TICK_MS,
        machineMs: (after.machine.total - before.machine.total) * TICK_MS,
      },
    };
  };
}

/** Readings summed, as one. */
export function addCpu(spent: CpuSpent[]): CpuSpent {
  const sum = (k: keyof CpuSpent) => spent.reduce((n, s) => n + s[k], 0);
  return {
    nodeMs: sum("nodeMs"),
    postgresMs: sum("postgresMs"),
    ownMs: sum("ownMs"),
    busyMs: sum("busyMs"),
    machineMs: sum("machineMs"),
  };
}

/** "node 10.37, PostgreSQL 10.03, load generator 2.15, other 0.38 ms per 1,000 points; machine 94 % busy" */
export function cpuLine(spent: CpuSpent, units: number, unit: string, digits = 2): string {
  const per = (ms: number) => (ms / units).toFixed(digits);
  // The machine's times (/proc/stat) and the processes' are counted apart, each in ticks: "other" within
  // a few tenths of a ms either side of zero (per 1,000 points of a 5-s slice) is that rounding, not work.
  const other = spent.busyMs - spent.nodeMs - spent.postgresMs - spent.ownMs;
  return (
    `node ${per(spent.nodeMs)}, PostgreSQL ${per(spent.postgresMs)}, load generator ${per(spent.ownMs)}, ` +
    `other ${per(other)} ms per ${unit}; the machine ${((spent.busyMs / spent.machineMs) * 100).toFixed(0)} % busy`
  );
}
