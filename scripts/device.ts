import { parseArgs } from "node:util";
import { mphFromKnots } from "@/server/devices/protocols/data-points";
import { parseStandInArgs } from "@/server/devices/stand-in/options";
import { tripRecords } from "@/server/devices/stand-in/records";
import { standInRoute } from "@/server/devices/stand-in/route";
import { runStandIn, type StandInEvent } from "@/server/devices/stand-in/run";
import { METERS_PER_MILE } from "@/server/simulator/geo";
import { generateTrip } from "@/server/simulator/model";
import { randomSeed } from "@/server/simulator/prng";
import { logger } from "@/server/platform/log";

// `npm run device -- --protocol teltonika|gt06|osmand --id <IMEI or identifier> --route <template
// id or .gpx file> [--sandbox] [--port N] [--host H] [--interval S] [--speedup N] [--seed N]
// [--codec 8|8E|16] [--form query|form|json]`: a simulated tracker driving a trip of the
// simulator's model against the device gateway, live, as a device of that protocol would
// (server/devices/stand-in/). One line per acknowledged batch; Ctrl-C stops it.

const usage = `usage: npm run device -- --protocol teltonika|gt06|osmand --id ID --route TEMPLATE|FILE.gpx
  [--sandbox] [--port N] [--host HOST] [--interval SECONDS] [--speedup N] [--seed N]
  [--codec 8|8E|16] [--form query|form|json]`;

const clock = () => new Date().toISOString().slice(11, 19);

function describe(event: StandInEvent, id: string, protocol: string): string {
  if (event.kind === "connected") return `connected (${event.connection}), ${id} accepted`;
  if (event.kind === "heartbeat") return "heartbeat answered";
  if (event.kind === "failed") {
    const hint =
      event.reason === "refused"
        ? ` — no vehicle in this environment may have the device ${id}: put it in a vehicle's ` +
          `"Device serial number" (the driver site's vehicle page), or check --sandbox`
        : "";
    const retryIn = Math.round(event.retryInMs / 1000);
    return `not acknowledged: ${event.message}${hint}; ${event.pending} records kept, trying again in ${retryIn} s`;
  }
  const last = event.batch.at(-1)!;
  const position = last.position ? `${last.position.latitude.toFixed(6)},${last.position.longitude.toFixed(6)}` : "-";
  const mph = mphFromKnots(last.speedKnots ?? 0).toFixed(0);
  const records = event.batch.length === 1 ? "1 record" : `${event.batch.length} records`;
  const again = event.resent ? ", sent again" : "";
  const ignition = last.ignition ? "on" : "off";
  return `acknowledged ${records} (${event.acknowledged}/${event.of})${again}: ${position} ${mph} mph, ignition ${ignition} [${protocol}]`;
}

const OPTIONS = {
  protocol: { type: "string" },
  id: { type: "string" },
  route: { type: "string" },
  port: { type: "string" },
  host: { type: "string" },
  interval: { type: "string" },
  speedup: { type: "string" },
  seed: { type: "string" },
  codec: { type: "string" },
  form: { type: "string" },
  sandbox: { type: "boolean" },
  help: { type: "boolean" },
} as const;

/** The command line's options; an unknown option or a missing value is its complaint and the usage. */
function commandLine() {
  try {
    return parseArgs({ options: OPTIONS }).values;
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
  }
}

async function main() {
  const values = commandLine();
  if (values.help) return void console.log(usage);
  let args;
  try {
    args = parseStandInArgs(values);
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
  }
  const route = standInRoute(args.route);
  const seed = args.seed ?? randomSeed();
  const trip = generateTrip(route.geometry, { collectionPeriod: args.interval, seed, engineData: false });
  const records = tripRecords(trip, { ...args, deviceId: args.id, start: new Date(), speedup: args.speedup });
  const minutes = Math.max(1, Math.round(trip.durationSeconds / args.speedup / 60));
  console.log(
    `${args.protocol} tracker ${args.id} → ${args.host}:${args.port}: ${route.name}, ` +
      `${(trip.lengthMeters / METERS_PER_MILE).toFixed(1)} mi, ${records.length} fixes over about ${minutes} min (seed ${seed})`,
  );

  const stop = new AbortController();
  process.once("SIGINT", () => stop.abort());
  process.once("SIGTERM", () => stop.abort());
  const result = await runStandIn({
    protocol: args.protocol,
    host: args.host,
    port: args.port,
    deviceId: args.id,
    records,
    live: true,
    codec: args.codec,
    form: args.form,
    signal: stop.signal,
    onEvent: (event) => console.log(`${clock()} ${describe(event, args.id, args.protocol)}`),
  });
  console.log(
    `${result.acknowledged.length} of ${records.length} records acknowledged over ${result.connections} connection(s)` +
      (result.stopped ? `; ${result.stopped}` : ""),
  );
  if (result.pending.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  // The message is for the person at the terminal (a missing option, an unknown route); the
  // stack, for when it is a bug, is logged at LOG_LEVEL=debug.
  console.error(error instanceof Error ? error.message : error);
  logger.debug({ err: error }, "device failed");
  process.exit(1);
});
