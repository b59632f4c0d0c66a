import fs from "node:fs";

/** A process's resident memory now, in KB (Linux: /proc/<pid>/status). */
export const rssKb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN);

/** This process's limit of open files (its soft limit), or Infinity where /proc does not say. */
export function openFilesLimit(pid: number | "self" = "self"): number {
  const line = /Max open files\s+(\S+)/.exec(fs.readFileSync(`/proc/${pid}/limits`, "utf8"))?.[1];
  return line === undefined || line === "unlimited" ? Infinity : Number(line);
}
