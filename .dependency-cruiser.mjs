// The arrows between folders, written down once and checked by `npm run lint` (docs/architecture.md
// draws them). Layers only point down:
//
//   app/ ──► components/ ──► common/          worker/ ──► server/
//     └──────► server/http/ ──► server/surfaces/ ──► server/<domain>/ ──► server/platform/ ──► common/, db/
//                                                 scripts/ ──► worker/, server/, db/
//
// components/ (React, much of it shipped to the browser) takes from server/ and db/ only types;
// what the browser shares with the server (schemas, formatters, constants) lives in common/, which
// itself depends on nothing of ours but db/'s types. Modules that must never reach the browser also
// import "server-only", so `next build` fails on a client import that slips past these rules.
const upward = (name, from, to, comment) => ({
  name,
  severity: "error",
  comment,
  from: { path: from },
  to: { path: to },
});
const runtime = (name, from, to, comment) => ({
  name,
  severity: "error",
  comment,
  from: { path: from },
  to: { path: to, dependencyTypesNot: ["type-only"] },
});

const config = {
  forbidden: [
    upward(
      "db-is-the-bottom",
      "^db/",
      "^(app|server|common|components|worker|scripts)/",
      "db/ depends on nothing above it: configuration comes from db/config.ts, the seed lives in server/surfaces/demo/.",
    ),
    upward(
      "server-not-up",
      "^server/",
      "^(app|components|worker|scripts)/",
      "server/ is the domain: routes, components, the worker and scripts call it, never the other way.",
    ),
    upward(
      "domain-not-http",
      "^server/(?!http/|openapi/)",
      "^server/http/",
      "server/http/ is the edge (wrappers, error translation, the routes' glue) and sits above the domain: " +
        "the domain throws the one error type and takes paging and field errors from common/http/. " +
        "server/openapi/ describes that edge and may read it.",
    ),
    runtime(
      "platform-is-the-floor",
      "^server/platform/",
      "^server/(?!platform/)",
      "server/platform/ (env, log, metrics, fleet, request, security, rate-limits) is what every domain " +
        "and surface stands on: it knows none of them (types only, e.g. the delivery attempt a metric " +
        "counts).",
    ),
    upward(
      "domains-not-surfaces",
      "^server/(?!surfaces/|http/)",
      "^server/surfaces/",
      "server/surfaces/ (console, driver, docs, demo) are the sites built on the domains: a domain serves " +
        "every surface and names none. The edge (server/http/) may reach a surface's session and forms.",
    ),
    {
      name: "console-and-driver-apart",
      severity: "error",
      comment:
        "The partner console and the driver site each keep their own sign-in, session and forms; what both " +
        "stand on (the next-auth stack, the forms' HMAC, the sign-in slowdown, the registrations' bucket) " +
        "lives in server/platform/.",
      from: { path: "^server/surfaces/(console|driver)/" },
      to: { path: "^server/surfaces/(console|driver)/", pathNot: "^server/surfaces/$1/" },
    },
    upward(
      "api-auth-knows-no-domain",
      "^server/api-auth/",
      "^server/(?!api-auth/|platform/)",
      "server/api-auth/ turns a bearer token into the principal every domain starts from (and meters the " +
        "request): it stands on the platform alone, so any domain may take the principal without a loop.",
    ),
    upward(
      "grants-below-the-protocol",
      "^server/grants/",
      "^server/oauth/",
      "server/grants/ is what drivers granted apps (scopes, precision, revocation): the OAuth protocol " +
        "(server/oauth/) records and reads grants, and the domains read them, never the protocol through " +
        "them.",
    ),
    runtime(
      "telemetry-calls-notifications",
      "^server/(notifications|access-log|alerts)/",
      "^server/telemetry/",
      "Ingest (server/telemetry/) evaluates subscriptions and the driver's alerts and notes what each app " +
        "received: it calls notifications/, alerts/ and access-log/, which take only types from it. The data keys all three read live in " +
        "common/telemetry/.",
    ),
    upward(
      "device-protocols-are-pure",
      "^server/devices/protocols/",
      "^(db/|server/(?!devices/protocols/|simulator/geo))",
      "server/devices/protocols/ turns bytes into records and replies, and nothing else: no database and no domain " +
        "(the gateway's sessions, server/devices/gateway/, do the I/O and hand the records to ingest), so every " +
        "decoder is tested byte for byte on its own.",
    ),
    {
      name: "device-protocols-without-io",
      severity: "error",
      comment:
        "The decoders open no socket, file or process (Node's modules that do I/O, which includeOnly names): " +
        "the gateway's listeners and sessions read and answer the devices.",
      from: { path: "^server/devices/protocols/" },
      to: { dependencyTypes: ["core"] },
    },
    upward(
      "common-is-a-leaf",
      "^common/",
      "^(app|server|components|worker|scripts)/",
      "common/ is shared with the browser: it may only use packages and db/'s types.",
    ),
    runtime("common-only-types-from-db", "^common/", "^db/", "common/ is shared with the browser: db/'s types only."),
    runtime(
      "components-only-types-from-server",
      "^components/",
      "^(server|db)/",
      "Client components reach the browser: take shared code from common/ and only types from server/ and db/.",
    ),
    upward(
      "components-not-app",
      "^components/",
      "^(app|worker|scripts)/",
      "components/ is used by app/, not the other way.",
    ),
    upward(
      "worker-not-app",
      "^worker/",
      "^(app|components|scripts)/",
      "The worker runs server/ code, never the site's routes or components.",
    ),
    upward(
      "app-not-scripts",
      "^app/",
      "^(worker|scripts)/",
      "Routes do not start processes: scripts/start.ts starts the worker beside Next.",
    ),
    upward(
      "product-not-tests",
      "^(app|server|db|common|components|worker|scripts)/",
      "^(test|e2e|bench)/",
      "Tests and benchmarks use the product, never the other way.",
    ),
    {
      name: "no-cycles",
      severity: "error",
      comment: "A cycle makes a module's meaning depend on import order; split the shared part out.",
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
  ],
  options: {
    // Our folders, and Node's modules that do I/O (for device-protocols-without-io).
    includeOnly:
      "^(app|server|db|common|components|worker|scripts|test|e2e|bench)/" +
      "|^(net|dgram|http|https|http2|tls|fs|fs/promises|child_process|cluster|worker_threads)$",
    exclude: { path: "^db/migrations/" },
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".d.ts"],
    },
  },
};

export default config;
