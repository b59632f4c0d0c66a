// postinstall: fixes a race in postgres.js 3.4.9 (porsager/postgres#823, #1189; fix proposed in
// #1218, not released). sql.begin() reserves its connection in an `onexecute` hook that sits at
// the end of an && chain in connection.js's execute(); when BEGIN is the query that fills a
// connection's pipeline, the chain stops early, the hook never runs, and the transaction's
// connection goes back to the pool with BEGIN sent. Under load that answered an ingest POST with
// 500 (UNSAFE_TRANSACTION, seen in bench:delivery) and could run other requests' queries inside
// a stranger's transaction. The fix: once a query with the hook is written, run the hook, and
// pipeline nothing more onto that connection. Idempotent; fails loudly if the code has changed.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const original = `      return write(toBuffer(q))
        && !q.describeFirst
        && !q.cursorFn
        && sent.length < max_pipeline
        && (!q.options.onexecute || q.options.onexecute(connection))`;
const patched = `      const written = write(toBuffer(q)) // patched by scripts/patch-postgres.mjs
      if (q.options.onexecute) return q.options.onexecute(connection), false
      return written
        && !q.describeFirst
        && !q.cursorFn
        && sent.length < max_pipeline`;

const files = ["src", "cjs/src", "cf/src"].map((dir) => path.join(root, "node_modules", "postgres", dir, "connection.js"));
let changed = 0;
for (const file of files) {
  if (!fs.existsSync(file)) continue;
  const text = fs.readFileSync(file, "utf8");
  if (text.includes(patched)) continue;
  if (!text.includes(original)) {
    console.error(`patch-postgres: ${path.relative(root, file)} does not hold the code this patch fixes; check whether the installed postgres version still needs it`);
    process.exit(1);
  }
  fs.writeFileSync(file, text.replace(original, patched));
  changed++;
}
if (changed) console.log(`patch-postgres: patched ${changed} file(s) of postgres.js (sql.begin connection reservation)`);
