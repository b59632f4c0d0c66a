// postinstall: fixes defects of postgres.js 3.4.9 that upstream has not released fixes for. Each
// patch below is a text replacement with the reason for it; the script is idempotent and fails
// loudly if the installed code no longer holds what a patch replaces (then check whether the new
// version still needs it). Files are replaced (written aside, then renamed), never written in
// place, so an installation whose files are hard links of another's is not changed through them.
//
// 1. sql.begin() connection reservation (porsager/postgres#823, #1189; fix proposed in #1218).
//    sql.begin() reserves its connection in an `onexecute` hook that sits at the end of an &&
//    chain in connection.js's execute(); when BEGIN is the query that fills a connection's
//    pipeline, the chain stops early, the hook never runs, and the transaction's connection goes
//    back to the pool with BEGIN sent. Under load that answered an ingest POST with 500
//    (UNSAFE_TRANSACTION, seen in bench:delivery) and could run other requests' queries inside a
//    stranger's transaction. The fix: once a query with the hook is written, run the hook, and
//    pipeline nothing more onto that connection.
//
// 2–6. Recovery after a lost connection (a database restart; docs/operations.md#a-database-restart;
//    the same defects as porsager/postgres#1208, #1209, #1215). Small writes wait in a buffer
//    (`chunk`) for a setImmediate flush, armed only while `nextWriteTimer` is null. When a
//    connection's socket closed with a write buffered, closed() and terminate() cancelled the
//    flush but kept both the buffer and the (dead) timer: that pool slot could never flush again.
//    Its next connection's startup message waited behind the dead request and was never sent
//    (every query on the slot hung 30 s and failed with CONNECT_TIMEOUT), or, once the buffer
//    passed 1 KiB, went out behind it (the server logged "invalid length of startup packet" and
//    hung up), for as long as the process lived. Fixed: (2, 3) both teardowns drop the buffer
//    and the timer; (4) closed() also forgets the dead connection's query and error, which the
//    next connection would otherwise report as its own first query's result; (5) a flush that
//    finds no socket fails the queries it carried (CONNECTION_CLOSED) instead of throwing from a
//    timer, which killed the process; (6) once a transaction's connection has closed, whatever
//    the transaction still sends (its automatic ROLLBACK, statements queued behind a full
//    pipeline) fails with that close instead of going out on the slot's next connection,
//    another request's, or waiting for ever.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const mark = " // patched by scripts/patch-postgres.mjs";

const patches = [
  {
    file: "connection.js",
    what: "sql.begin connection reservation",
    original: `      return write(toBuffer(q))
        && !q.describeFirst
        && !q.cursorFn
        && sent.length < max_pipeline
        && (!q.options.onexecute || q.options.onexecute(connection))`,
    patched: `      const written = write(toBuffer(q))${mark}
      if (q.options.onexecute) return q.options.onexecute(connection), false
      return written
        && !q.describeFirst
        && !q.cursorFn
        && sent.length < max_pipeline`,
  },
  {
    file: "connection.js",
    what: "terminate() drops a buffered write",
    original: `    clearImmediate(nextWriteTimer)
    if (socket) {`,
    patched: `    clearImmediate(nextWriteTimer)
    chunk = nextWriteTimer = null${mark}
    if (socket) {`,
  },
  {
    file: "connection.js",
    what: "closed() drops a buffered write",
    original: `    incomings = null
    clearImmediate(nextWriteTimer)
`,
    patched: `    incomings = null
    clearImmediate(nextWriteTimer)
    chunk = nextWriteTimer = null${mark}
`,
  },
  {
    file: "connection.js",
    what: "closed() forgets the dead connection's query and error",
    original: `    !hadError && (query || sent.length) && error(Errors.connection('CONNECTION_CLOSED', options, socket))
`,
    patched: `    !hadError && (query || sent.length) && error(Errors.connection('CONNECTION_CLOSED', options, socket))
    query = results = errorResponse = null${mark}
    result = new Result()
`,
  },
  {
    file: "connection.js",
    what: "a flush without a socket fails its queries",
    original: `  function nextWrite(fn) {
    const x = socket.write(chunk, fn)`,
    patched: `  function nextWrite(fn) {
    if (!socket) {${mark}
      nextWriteTimer !== null && clearImmediate(nextWriteTimer)
      chunk = nextWriteTimer = null
      error(Errors.connection('CONNECTION_CLOSED', options))
      query = results = errorResponse = null
      return false
    }
    const x = socket.write(chunk, fn)`,
  },
  {
    file: "index.js",
    what: "a transaction remembers that its connection closed",
    original: `        new Promise((_, reject) => connection.onclose = reject)`,
    patched: `        new Promise((_, reject) => connection.onclose = error => {${mark}
          closedWith = error
          while (queries.length)
            queries.shift().reject(error)
          reject(error)
        })`,
  },
  {
    file: "index.js",
    what: "a transaction's state gets a place for that close",
    original: `    let savepoints = 0
      , connection
      , prepare = null`,
    patched: `    let savepoints = 0
      , connection
      , closedWith = null${mark}
      , prepare = null`,
  },
  {
    file: "index.js",
    what: "a transaction sends nothing after its connection closed",
    original: `        q.catch(e => uncaughtError || (uncaughtError = e))
        c.queue === full`,
    patched: `        q.catch(e => uncaughtError || (uncaughtError = e))
        if (closedWith)${mark}
          return q.reject(closedWith)
        c.queue === full`,
  },
];

const dirs = ["src", "cjs/src", "cf/src"].map((dir) => path.join(root, "node_modules", "postgres", dir));
let changed = 0;
for (const dir of dirs) {
  for (const name of [...new Set(patches.map((p) => p.file))]) {
    const file = path.join(dir, name);
    if (!fs.existsSync(file)) continue;
    const before = fs.readFileSync(file, "utf8");
    let text = before;
    for (const patch of patches.filter((p) => p.file === name)) {
      if (text.includes(patch.patched)) continue;
      const at = text.indexOf(patch.original);
      if (at < 0 || text.indexOf(patch.original, at + 1) >= 0) {
        console.error(
          `patch-postgres: ${path.relative(root, file)} does not hold, once, the code the patch "${patch.what}" fixes; check whether the installed postgres version still needs it`,
        );
        process.exit(1);
      }
      text = text.replace(patch.original, patch.patched);
      changed++;
    }
    if (text === before) continue;
    const aside = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(aside, text);
    fs.renameSync(aside, file);
  }
}
if (changed)
  console.log(`patch-postgres: applied ${changed} patch(es) to postgres.js (see scripts/patch-postgres.mjs)`);
