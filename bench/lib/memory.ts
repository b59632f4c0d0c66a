import fs from "node:fs";

/** A process's resident memory now, in KB (Linux: /proc/<pid>/status). */
export const rssKb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN);
