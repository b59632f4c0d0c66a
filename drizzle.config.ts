import { defineConfig } from "drizzle-kit";

// Migrations are generated from db/schema (the source of truth) and committed; scripts/start.ts and
// the test harness apply them (db/migrate.ts). `npm run db:generate` after a schema change.
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema/index.ts",
  out: "./db/migrations",
  casing: "snake_case",
});
