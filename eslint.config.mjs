import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// SQL as text (postgres.js's unsafe(), which neither parameterises nor checks what it is given)
// is confined to the files listed below: in the app, db/client.ts alone (it makes drizzle's
// queries prepared); the rest are benchmarks (DDL, PostgreSQL's own rates) and tests of the wire
// protocol. Build SQL with drizzle's sql template or postgres.js's tagged templates and
// fragments instead.
const sqlAsText = [
  {
    selector: "MemberExpression[property.name='unsafe']",
    message:
      "SQL as text only in the files eslint.config.mjs allows: use drizzle's sql`` or postgres.js's tagged template.",
  },
  // drizzle's sql.raw() splices text into the statement: pass values as parameters instead.
  {
    selector: "CallExpression[callee.object.name='sql'][callee.property.name='raw']",
    message: "No sql.raw(): pass values as parameters (an array as its text form, an interval with make_interval).",
  },
];

// HTTP answers are built at the edge only (docs/architecture.md#the-request-path): routes in app/
// and their wrappers in server/http/. The domain returns values or throws its error (ApiError,
// OAuthError), and says what an answer is to be (an authorization page's redirect or error page);
// the edge turns that into a Response. The Response global is no import, so dependency-cruiser
// cannot see it: this rule does.
const edgeOnly =
  "Responses are built in server/http/ or app/ (docs/architecture.md#the-request-path): return a value " +
  "or throw ApiError/OAuthError and let the route's wrapper answer.";
const responsesAtTheEdge = [
  { selector: "NewExpression[callee.name='Response']", message: edgeOnly },
  { selector: "MemberExpression[object.name='Response']", message: edgeOnly },
  { selector: "Identifier[name='NextResponse']", message: edgeOnly },
];

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [
      ".next/**",
      ".build/**",
      "bench/baseline/.next/**",
      "sdk/dist/**",
      "node_modules/**",
      ".data/**",
      "db/migrations/**",
      "next-env.d.ts",
      "test-results/**",
      "playwright-report/**",
    ],
  },
  {
    // Prettier wraps the code at 120 characters; what it cannot break (a long string or comment, a
    // template literal) is wrapped by hand within 160 (docs/decisions/0061-prettier.md). A URL or a
    // regular expression cannot be wrapped, nor the title on the line that opens a test (split, it
    // would move the whole test's body); generated files are not ours to wrap.
    ignores: ["sdk/src/generated/**"],
    rules: {
      "max-len": [
        "error",
        {
          code: 160,
          ignoreUrls: true,
          ignoreRegExpLiterals: true,
          ignorePattern: String.raw`^\s*(describe|it|test)(\.\w+)*\("`,
        },
      ],
    },
  },
  {
    rules: {
      // A leading underscore marks a value left out on purpose (e.g. `const { password: _p, ...rest }`).
      "@typescript-eslint/no-unused-vars": [
        "warn",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
      // Configuration is read once, in server/platform/env.ts (the database's own variables in db/config.ts, which it extends).
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read configuration through server/platform/env.ts." },
      ],
    },
  },
  {
    files: [
      "server/platform/env.ts",
      "db/config.ts",
      "scripts/**",
      "test/**",
      "e2e/**",
      "playwright.config.ts",
      "vitest.config.ts",
      "drizzle.config.ts",
      "next.config.js",
      "bench/**",
      // The client package stands apart from the service: its command reads WAYLINE_* itself.
      "sdk/src/cli/main.ts",
    ],
    rules: { "no-restricted-properties": "off" },
  },
  {
    // SQL as text: see sqlAsText above.
    rules: {
      "no-restricted-syntax": ["error", ...sqlAsText],
    },
  },
  {
    files: [
      "db/client.ts",
      "bench/ingest.ts",
      // PostgreSQL alone's batch names its schema (the partitioned tables or plain copies of them).
      "bench/lib/postgres-alone.ts",
      "bench/reads.ts",
      "test/unit/delivery-embedded-notify.test.ts",
      "test/unit/embedded-wire-server.test.ts",
    ],
    rules: { "no-restricted-syntax": "off" },
  },
  {
    // Below the edge, no Response (responsesAtTheEdge above); the rule's SQL part still holds.
    files: ["server/**", "common/**", "db/**", "worker/**", "components/**", "scripts/**"],
    ignores: ["server/http/**", "db/client.ts"],
    rules: { "no-restricted-syntax": ["error", ...sqlAsText, ...responsesAtTheEdge] },
  },
  {
    // One way to reach the database (docs/architecture.md#reaching-the-database): drizzle, the
    // builder by default. postgres.js's tagged templates (rawSql(), the postgres package,
    // db/fragments.ts) only in the files of the hot paths listed below, each file one mechanism.
    files: ["app/**", "server/**", "worker/**", "common/**", "components/**", "scripts/**", "proxy.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "@/db/client",
              importNames: ["rawSql"],
              message:
                "postgres.js only on the hot paths eslint.config.mjs lists (docs/architecture.md#reaching-the-database): use drizzle's builder.",
            },
            {
              name: "postgres",
              message:
                "postgres.js only on the hot paths eslint.config.mjs lists (docs/architecture.md#reaching-the-database): use drizzle's builder.",
            },
            {
              name: "@/db/fragments",
              message:
                "postgres.js only on the hot paths eslint.config.mjs lists (docs/architecture.md#reaching-the-database): use drizzle's builder.",
            },
          ],
        },
      ],
    },
  },
  {
    // The hot paths, in postgres.js: each file here holds no drizzle query.
    files: [
      // every API request: its token authenticated and its buckets metered, in one statement
      "server/api-auth/bearer.ts",
      "server/platform/rate-limits/buckets.ts",
      // ingest: one read and one write statement a batch (unnest over array parameters)
      "server/telemetry/ingest/*.ts",
      "server/notifications/ingest-queries.ts",
      "server/alerts/ingest-queries.ts",
      // the device gateway's batches: their statements run in the transaction of ingest's (above)
      "server/devices/ingest/*.ts",
      // the delivery worker: claim, leases, LISTEN, recording a batch
      "server/delivery/claims.ts",
      "server/delivery/queue.ts",
      "server/delivery/attempts.ts",
      "server/delivery/attempt-rollups.ts",
      // the process's LISTEN, which wakes event streams (and whatever else subscribes): drizzle has no word for it
      "server/platform/fleet/notify-listener.ts",
      // the simulator's tick: one update for the batch of runs
      "server/simulator/save-outcomes.ts",
      // reads whose per-row mapping in drizzle cost most of the answer (bench:api, bench:reads)
      "server/vehicles/list-vehicles.ts",
      "server/telemetry/trip-data-sets.ts",
      "server/surfaces/driver/track-queries.ts",
      // the bound on a data set's points those two share
      "server/telemetry/point-span.ts",
      // the data export's points, a batch of 5,000 at a time (bench:export: a million in a minute)
      "server/surfaces/driver/export/point-batches.ts",
      // the benchmarks' bare baseline routes, an app of their own
      "bench/baseline/app/**",
    ],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "drizzle-orm",
              message: "A hot path's file speaks postgres.js alone: put drizzle queries in a file of their own.",
            },
            {
              name: "@/db/client",
              importNames: ["db"],
              message: "A hot path's file speaks postgres.js alone: put drizzle queries in a file of their own.",
            },
          ],
        },
      ],
    },
  },
  {
    // Tests read arbitrary JSON answers and assert on them field by field.
    files: ["test/**", "e2e/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
];

export default config;
