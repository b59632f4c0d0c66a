import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [".next/**", ".next-bench/**", "node_modules/**", ".data/**", "db/migrations/**", "next-env.d.ts", "test-results/**", "playwright-report/**"],
  },
  {
    rules: {
      // A leading underscore marks a value left out on purpose (e.g. `const { password: _p, ...rest }`).
      "@typescript-eslint/no-unused-vars": ["warn", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
      // Configuration is read once, in server/env.ts (the database's own variables in db/config.ts, which it extends).
      "no-restricted-properties": ["error", { object: "process", property: "env", message: "Read configuration through server/env.ts." }],
    },
  },
  {
    files: ["server/env.ts", "db/config.ts", "scripts/**", "test/**", "e2e/**", "playwright.config.ts", "vitest.config.ts", "drizzle.config.ts", "next.config.js", "bench/**"],
    rules: { "no-restricted-properties": "off" },
  },
  {
    // SQL as text (postgres.js's unsafe(), which neither parameterises nor checks what it is given)
    // is confined to the files listed below: in the app, db/client.ts alone (it makes drizzle's
    // queries prepared); the rest are benchmarks (DDL, PostgreSQL's own rates) and tests of the wire
    // protocol. Build SQL with drizzle's sql template or postgres.js's tagged templates and
    // fragments instead.
    rules: {
      "no-restricted-syntax": ["error", { selector: "MemberExpression[property.name='unsafe']", message: "SQL as text only in the files eslint.config.mjs allows: use drizzle's sql`` or postgres.js's tagged template." }],
    },
  },
  {
    files: [
      "db/client.ts",
      "bench/ingest.ts",
      "bench/reads.ts",
      "test/unit/delivery-embedded-notify.test.ts",
      "test/unit/embedded-wire-server.test.ts",
    ],
    rules: { "no-restricted-syntax": "off" },
  },
  {
    // Tests read arbitrary JSON answers and assert on them field by field.
    files: ["test/**", "e2e/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
];

export default config;
