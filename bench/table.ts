// npm run bench:table: writes the table of docs/benchmarks.md ("Latest figures") from the result
// files the benchmarks write (bench/results/<benchmark>/*.json): for each benchmark its newest run
// on a quiet machine, or its newest run at all when none was quiet (marked busy). `--check` writes
// nothing and fails when the page's table is not the one the files give (a unit test runs it).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { renderTable, readResults, replaceTable } from "./lib/results-table";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const page = path.join(root, "docs/benchmarks.md");

const current = fs.readFileSync(page, "utf8");
const wanted = replaceTable(current, renderTable(readResults(path.join(root, "bench/results"))));
if (process.argv.includes("--check")) {
  if (wanted !== current) {
    console.error("docs/benchmarks.md's table is not the one bench/results gives: run npm run bench:table");
    process.exit(1);
  }
} else if (wanted !== current) {
  fs.writeFileSync(page, wanted);
  console.log("docs/benchmarks.md: table written");
}
