// @ts-check
import path from "node:path";
import product from "../../next.config.js";

// The benchmarks' baseline app (docs/benchmarks.md#the-baseline-app): bare route handlers that
// bench:api and bench:ingest measure ours against, built with the product's settings so that only
// the handlers differ, into bench/baseline/.next. Its handlers import the product's database client
// and helpers (`@/…`, tsconfig.json), which Turbopack reads only within its root: the repository.
const root = path.resolve(import.meta.dirname, "..", "..");

/** @type {import('next').NextConfig} */
const nextConfig = { ...product, turbopack: { root }, outputFileTracingRoot: root };

export default nextConfig;
