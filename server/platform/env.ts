import "server-only";
import path from "node:path";
import { z } from "zod";
import { databaseEnvSchema } from "@/db/config";

// The one place that reads process.env (lint forbids process.env elsewhere), besides db/config.ts for the
// database's own two variables. Every variable is documented in .env.example.

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));

const boolish = z
  .enum(["1", "0", "true", "false", "yes", "no", "on", "off", ""])
  .optional()
  .transform((v) => (v === undefined || v === "" ? undefined : v === "1" || v === "true" || v === "yes" || v === "on"));

/** A rate limit as "QUOTA/WINDOW": QUOTA requests at once, refilled evenly over WINDOW ("10s", "5m", "1h"). */
export type RateSpec = { quota: number; windowSeconds: number };

const rateSpec = (fallback: string) =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === "" ? fallback : v.trim()))
    .transform((v, ctx): RateSpec => {
      const match = /^(\d+)\s*\/\s*(\d+)\s*(s|m|h)$/.exec(v);
      const quota = Number(match?.[1]);
      const windowSeconds = Number(match?.[2]) * { s: 1, m: 60, h: 3600 }[(match?.[3] ?? "s") as "s" | "m" | "h"];
      if (!match || quota < 1 || quota > 1_000_000 || windowSeconds < 1 || windowSeconds > 86_400) {
        ctx.addIssue({
          code: "custom",
          message: 'Must be "QUOTA/WINDOW", e.g. "1000/10s" (1 to 1,000,000 requests per 1 s to 24 h, whole units).',
        });
        return z.NEVER;
      }
      return { quota, windowSeconds };
    });

// The least level the logger writes (server/platform/log.ts); "silent" writes nothing.
const logLevelSchema = z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info");

// DATABASE_URL and DATA_DIR come from the database's own schema (db/config.ts), which db/ reads itself.
const schema = databaseEnvSchema.extend({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("127.0.0.1"),
  PUBLIC_URL: optionalString.pipe(z.string().url().optional()),
  SEED_DEMO: boolish,
  LOG_LEVEL: logLevelSchema,
  SMTP_URL: optionalString,
  DELIVERY_CA_FILE: optionalString,
  DELIVERY_ALLOWED_HOSTS: optionalString,
  // Notification delivery worker (server/delivery, worker/index.ts). WORKER=off: `npm start` serves
  // the site and API only, and `npm run worker` delivers.
  WORKER: boolish,
  // Multiplies the retry schedule's delays (1 = immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, …).
  DELIVERY_RETRY_SCALE: z.coerce.number().positive().max(1).default(1),
  // How long a worker holds a claimed delivery before another worker may take it over (a crashed
  // worker's deliveries are resent after this; idle workers look for such leases every second).
  DELIVERY_LEASE_SECONDS: z.coerce.number().min(2).max(3600).default(120),
  // Batches one worker has in hand at once; each sends up to 100 deliveries in parallel.
  DELIVERY_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(16),
  // Session signing for the driver sign-in (next-auth). Unset: generated on first start and kept
  // in DATA_DIR (server/platform/sessions/session-secret.ts).
  NEXTAUTH_SECRET: optionalString.pipe(z.string().min(32, "Must be at least 32 characters.").optional()),
  // The VAPID key pair that signs browser notifications (RFC 8292; docs/browser-notifications.md), both
  // or neither, base64url as web-push writes them. Unset: generated on first start and kept in DATA_DIR
  // (server/alerts/push/vapid.ts). VAPID_SUBJECT: the contact push services see (mailto: or https:);
  // unset, the public origin when it is https, else mailto:postmaster@ its host.
  VAPID_PUBLIC_KEY: optionalString.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{87}$/, "Must be 65 bytes, base64url.")
      .optional(),
  ),
  VAPID_PRIVATE_KEY: optionalString.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{43}$/, "Must be 32 bytes, base64url.")
      .optional(),
  ),
  VAPID_SUBJECT: optionalString.pipe(
    z
      .string()
      .regex(/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/, "Must be a mailto: address or an https: URL.")
      .optional(),
  ),
  // Behind a reverse proxy: take the client address from the last X-Forwarded-For entry.
  TRUST_PROXY: boolish,
  // The driver site's map tiles: an {x}/{y}/{z} URL template and its attribution (HTML, shown on
  // the map). OpenStreetMap's public tiles by default; markers and tracks draw without tiles, on the
  // shipped road networks (components/map/road-background.tsx); "off" asks for no tiles at all.
  MAP_TILE_URL: optionalString.transform((v) => v ?? "https://tile.openstreetmap.org/{z}/{x}/{y}.png"),
  MAP_TILE_ATTRIBUTION: optionalString.transform(
    (v) => v ?? '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
  ),
  // OpenStreetMap road networks of the sandbox simulator, relative to the working directory (the
  // repository root). The networks ship with the repository (server/simulator/road-networks,
  // gzipped; NOTICE.md says where they come from); a folder of other extracts may replace them.
  ROADS_DIR: z.string().default("server/simulator/road-networks"),
  // The simulator's real-time loop in this process (default on); off for processes that must not
  // drive runs (a benchmark that drives them itself).
  SIMULATOR: boolish,
  // Rate limits (server/platform/rate-limits/, docs/operations.md#rate-limits), shared by every process
  // through the database. RATE_LIMITS=off switches them all off (the benchmarks do).
  RATE_LIMITS: boolish,
  RATE_LIMIT_API_TOKEN: rateSpec("1000/10s"),
  RATE_LIMIT_API_CLIENT: rateSpec("10000/10s"),
  RATE_LIMIT_API_ADDRESS: rateSpec("1000/10s"),
  RATE_LIMIT_OAUTH_CLIENT: rateSpec("500/10s"),
  RATE_LIMIT_OAUTH_ADDRESS: rateSpec("100/10s"),
  RATE_LIMIT_REGISTRATION_ADDRESS: rateSpec("20/10m"),
  // `npm start`'s HTTP processes (node:cluster). Unset: one per core on PostgreSQL, one on the
  // embedded database (one backend that every query takes turns on: more processes add nothing).
  // 1: everything in one process, as before.
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(256).optional(),
  // On SIGTERM, how long requests in flight (and the worker's jobs) may take before they are cut.
  DRAIN_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(600).default(10),
  // How long a client may take to send a request's headers, and the whole request with its body
  // (server/http/request-timeouts.ts): past it the connection is answered 408 and closed, so slow
  // senders cannot hold connections open. No honest client needs more than a few seconds.
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().min(0.5).max(3600).default(30),
  // Data points recorded more than this many days ago are deleted by the worker, hourly, in
  // batches (server/telemetry/retention.ts). Unset: kept for ever.
  DATA_POINT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).optional(),
  // Delivery attempts made more than this many days ago are deleted by the worker, hourly
  // (server/delivery/attempt-retention.ts). At least 8: the console's delivery health reads the first
  // minutes of its 7-day window from the attempts. Unset: kept for ever.
  DELIVERY_ATTEMPT_RETENTION_DAYS: z.coerce.number().int().min(8).max(36_500).optional(),
  // GET /eventFeed/ keeps at least this many days: a cursor issued longer ago is refused (410
  // CURSOR_EXPIRED) and the client restarts with ?since= (docs/event-feed.md).
  EVENT_FEED_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(7),
  // The access log (docs/operations.md#the-access-log): on by default; off only to measure its cost
  // (bench:api). Each process adds its counts up in memory and writes them every
  // ACCESS_LOG_FLUSH_SECONDS, and on a clean stop; the worker deletes hours older than
  // ACCESS_LOG_RETENTION_DAYS (at least the 90 days the driver site shows).
  ACCESS_LOG: boolish,
  ACCESS_LOG_FLUSH_SECONDS: z.coerce.number().min(0.1).max(300).default(5),
  ACCESS_LOG_RETENTION_DAYS: z.coerce.number().int().min(90).max(36_500).default(400),
  // GET /eventFeed/stream writes a comment line this often, so that clients and proxies see an
  // idle stream alive (the contract: at least every 15 s). Tests shorten it.
  STREAM_HEARTBEAT_SECONDS: z.coerce.number().min(0.05).max(15).default(15),
  // An open stream reads the feed this often without being woken, in case a NOTIFY was lost
  // (docs/event-feed.md#how-it-works). Tests lengthen it, so that only a NOTIFY can wake a stream.
  STREAM_SAFETY_READ_SECONDS: z.coerce.number().min(1).max(86_400).default(10),
  // Open streams each process allows (docs/operations.md#open-streams): GET /eventFeed/stream per
  // access token, and per app and environment (a user token's: per app, environment and account);
  // the live map's per driver account and the simulator's run stream per partner. A stream whose
  // client has taken none of the data waiting for it for STREAM_STALL_SECONDS is ended.
  STREAM_MAX_PER_TOKEN: z.coerce.number().int().min(1).max(10_000).default(5),
  STREAM_MAX_PER_APP: z.coerce.number().int().min(1).max(100_000).default(20),
  STREAM_MAX_PER_USER: z.coerce.number().int().min(1).max(10_000).default(10),
  STREAM_STALL_SECONDS: z.coerce.number().min(0.5).max(3600).default(30),
  // The device gateway (docs/devices.md#the-gateway): off runs none in `npm start` (`npm run gateway`
  // runs it alone). DEVICE_HOST is the address its ports bind (default HOST); DEVICE_PORT_OFFSET is
  // added to every device port (a second instance on one machine; at most 50,480, which keeps the
  // sandbox's OsmAnd 15055 a port); a TCP connection silent for DEVICE_IDLE_SECONDS is closed.
  DEVICE_GATEWAY: boolish,
  DEVICE_HOST: optionalString,
  DEVICE_PORT_OFFSET: z.coerce.number().int().min(0).max(50_480).default(0),
  DEVICE_IDLE_SECONDS: z.coerce.number().min(1).max(86_400).default(600),
  // A vehicle's device that stores no record for DEVICE_SILENT_MINUTES is reported silent once, as a
  // VEHICLEDISCONNECTED event (docs/devices.md#silent-devices); fractions of a minute are accepted.
  DEVICE_SILENT_MINUTES: z.coerce.number().min(0.01).max(10_080).default(30),
  // GET /metrics for clients other than loopback: `Authorization: Bearer <METRICS_TOKEN>`.
  // Unset: loopback clients only.
  METRICS_TOKEN: optionalString.pipe(z.string().min(16, "Must be at least 16 characters.").optional()),
  // The host name devices are told to send to (the driver site's "Connect a device"). Unset: the
  // host of the public origin (PUBLIC_URL, else HOST).
  DEVICE_PUBLIC_HOST: optionalString.pipe(
    z
      .string()
      .max(253)
      .regex(/^[A-Za-z0-9.:[\]-]+$/, "Must be a host name or an IP address, without scheme or port.")
      .optional(),
  ),
});

export type Env = z.infer<typeof schema> & {
  dataDir: string;
  roadsDir: string;
  embedded: boolean;
  seedDemo: boolean;
  simulator: boolean;
  workerEnabled: boolean;
  rateLimits: boolean;
  accessLog: boolean;
  deviceGateway: boolean;
};

let cached: Env | undefined;

export function env(): Env {
  if (cached) return cached;
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid configuration (see .env.example):\n${lines}`);
  }
  const embedded = parsed.data.DATABASE_URL === undefined;
  cached = {
    ...parsed.data,
    dataDir: path.resolve(parsed.data.DATA_DIR),
    roadsDir: path.resolve(parsed.data.ROADS_DIR),
    simulator: parsed.data.SIMULATOR ?? true,
    embedded,
    // Demo data only where it cannot leak known credentials into a real deployment: the embedded
    // database, unless the operator says otherwise.
    seedDemo: parsed.data.SEED_DEMO ?? embedded,
    workerEnabled: parsed.data.WORKER ?? true,
    rateLimits: parsed.data.RATE_LIMITS ?? true,
    accessLog: parsed.data.ACCESS_LOG ?? true,
    deviceGateway: parsed.data.DEVICE_GATEWAY ?? true,
  };
  return cached;
}

/**
 * LOG_LEVEL alone, for the logger, which is made when its module loads (before env() is first
 * asked, and in processes where the rest may be invalid). An invalid value logs at "info" here;
 * env() refuses it with the other configuration errors.
 */
export function logLevel(): z.infer<typeof logLevelSchema> {
  const parsed = logLevelSchema.safeParse(process.env.LOG_LEVEL);
  return parsed.success ? parsed.data : "info";
}

// next-auth reads its own origin from process.env at request time, so the origin decision is
// written there, once, from here: always the configured origin (server/platform/request/public-origin.ts).
// Without NEXTAUTH_URL next-auth would take it from each request's X-Forwarded-Host or Host, and
// build its callback and redirect URLs on whatever host a client names.
export function exportNextAuthOrigin(origin: string): void {
  process.env.NEXTAUTH_URL = new URL("/api/auth", origin).toString();
}
