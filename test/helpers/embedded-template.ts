import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { openEmbeddedDatabase } from "@/db/embedded/embedded-database";

// A fresh embedded database costs a start about 3.4 CPU-seconds of initdb and migrations in
// PGlite's WebAssembly (measured 6.4 s against 3.0 s from a copy, 2026-11-26), and the tests start
// dozens. So the suite migrates one embedded database per version of the migrations and of PGlite,
// kept in the temporary directory under a name that says which, and the services and workers it
// starts on the embedded database begin from a copy of it. The service still runs its migrations
// on start (they find nothing to do); a fresh start from nothing is what the front door, the
// template itself and the unit tests of the embedded database show.

const root = path.resolve(import.meta.dirname, "..", "..");
const migrationsDir = path.join(root, "db", "migrations");

/** Where the template for this checkout's migrations and PGlite lives (it may not exist yet). */
function templateDir(): string {
  const hash = createHash("sha256");
  const files = fs.readdirSync(migrationsDir, { recursive: true, encoding: "utf8" }).sort();
  for (const file of files) {
    const full = path.join(migrationsDir, file);
    if (fs.statSync(full).isFile()) hash.update(file).update(fs.readFileSync(full));
  }
  const pglite = JSON.parse(
    fs.readFileSync(path.join(root, "node_modules", "@electric-sql", "pglite", "package.json"), "utf8"),
  ) as { version: string };
  hash.update(pglite.version);
  return path.join(os.tmpdir(), `wayline-embedded-template-${hash.digest("hex").slice(0, 16)}`);
}

/**
 * Makes the template unless it exists: a PGlite data dir with every migration applied, closed
 * cleanly. Made beside its final name and renamed into place, so a concurrent run never copies a
 * half-made one (two runs at once may both make it; one rename wins).
 */
export async function ensureEmbeddedTemplate(): Promise<string> {
  const dir = templateDir();
  if (fs.existsSync(dir)) return dir;
  const work = fs.mkdtempSync(`${dir}.making-`);
  try {
    const embedded = await openEmbeddedDatabase(work);
    const sql = postgres(embedded.url, { max: 1, prepare: false, fetch_types: false, onnotice: () => {} });
    try {
      await migrate(drizzle(sql), { migrationsFolder: migrationsDir });
    } finally {
      await sql.end({ timeout: 5 });
      await embedded.stop();
    }
    try {
      fs.renameSync(path.join(work, "pglite"), dir);
    } catch (error) {
      if (!fs.existsSync(dir)) throw error;
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return dir;
}

/**
 * Gives an embedded data dir the template's database, when the suite made one; else the start
 * makes its own (a single file run outside the suite, a benchmark).
 */
export function seedEmbeddedDataDir(dataDir: string): void {
  const template = templateDir();
  if (!fs.existsSync(template)) return;
  fs.cpSync(template, path.join(dataDir, "pglite"), { recursive: true });
}
