import type { OsmAndForm } from "../protocols/osmand/encode";
import type { DeviceRecord } from "../protocols/record";
import type { Codec } from "../protocols/teltonika/encode";
import { StandInError } from "./errors";
import { gt06Link } from "./gt06";
import type { Link } from "./link";
import { osmandLink } from "./osmand";
import { teltonikaLink } from "./teltonika";

// The stand-in's device: it sends its records in order, as the protocol's devices do, and keeps
// every record until the gateway acknowledged it. A connection lost (or refused) before the
// acknowledgement costs nothing but time: the device connects again, identifies itself again and
// sends the same records again, so each is acknowledged once. Tests of the gateway drive this
// without the command line (scripts/device.ts is the command).

export type DeviceProtocol = "teltonika" | "gt06" | "osmand";

export type StandInEvent =
  | { kind: "connected"; connection: number }
  | { kind: "acknowledged"; batch: DeviceRecord[]; acknowledged: number; of: number; resent: boolean }
  | { kind: "heartbeat" }
  | { kind: "failed"; reason: StandInError["reason"]; message: string; pending: number; retryInMs: number };

export type StandInOptions = {
  protocol: DeviceProtocol;
  host: string;
  port: number;
  deviceId: string;
  records: readonly DeviceRecord[];
  /** Each record sent no earlier than its fix time, as a device reporting live; else all at once. */
  live?: boolean;
  /** Teltonika: the codec (default 8) and the most records a packet (default 10). */
  codec?: Codec;
  maxRecordsPerPacket?: number;
  /** OsmAnd: the request's form (default the query string). */
  form?: OsmAndForm;
  /** GT06: a heartbeat after this long without a frame (default 180 s; live only). */
  heartbeatMs?: number;
  /** How long a connection or an answer may take (default 10 s). */
  timeoutMs?: number;
  /** The wait after a failure, doubled after each one that follows, up to 30 s (default 1 s). */
  retryDelayMs?: number;
  /** Give up after this many failures in a row (default never). */
  maxFailures?: number;
  onEvent?: (event: StandInEvent) => void;
  signal?: AbortSignal;
};

export type StandInResult = {
  /** Every record the gateway acknowledged, each once, in order. */
  acknowledged: DeviceRecord[];
  /** What was left unacknowledged when the device stopped. */
  pending: DeviceRecord[];
  /** Connections opened and identified (OsmAnd, whose requests stand alone: first tries and tries after a failure). */
  connections: number;
  /** Why it stopped before everything was acknowledged: null when it did not. */
  stopped: string | null;
};

const MAX_RETRY_DELAY_MS = 30_000;
const TELTONIKA_PACKET_RECORDS = 10;
const HEARTBEAT_MS = 180_000;

function linkFor(o: StandInOptions, timeoutMs: number): Link {
  const at = { host: o.host, port: o.port, timeoutMs };
  if (o.protocol === "teltonika")
    return teltonikaLink({
      ...at,
      deviceId: o.deviceId,
      codec: o.codec ?? 0x08,
      maxRecords: o.maxRecordsPerPacket ?? TELTONIKA_PACKET_RECORDS,
    });
  if (o.protocol === "gt06") return gt06Link({ ...at, deviceId: o.deviceId });
  return osmandLink({ ...at, form: o.form ?? "query" });
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal?.addEventListener("abort", done, { once: true });
  });

/** Sends `records` until each is acknowledged (or the signal aborts, or maxFailures is reached). */
export async function runStandIn(options: StandInOptions): Promise<StandInResult> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const firstDelay = options.retryDelayMs ?? 1000;
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const { signal, onEvent } = options;
  const pending = [...options.records];
  const acknowledged: DeviceRecord[] = [];
  const tried = new Set<DeviceRecord>();
  let link: Link | null = null;
  let connections = 0;
  let failures = 0;
  let delay = firstDelay;
  let lastSentAt = Date.now();
  let stopped: string | null = null;
  const closeOnAbort = () => link?.close();
  signal?.addEventListener("abort", closeOnAbort, { once: true });

  /** After a failure: whether to go on, having waited. */
  async function failed(error: unknown): Promise<boolean> {
    if (!(error instanceof StandInError)) throw error;
    if (signal?.aborted) return false;
    link?.close();
    link = null;
    failures++;
    if (options.maxFailures !== undefined && failures >= options.maxFailures) {
      stopped = `gave up after ${failures} failures: ${error.message}`;
      return false;
    }
    onEvent?.({
      kind: "failed",
      reason: error.reason,
      message: error.message,
      pending: pending.length,
      retryInMs: delay,
    });
    await sleep(delay, signal);
    delay = Math.min(delay * 2, MAX_RETRY_DELAY_MS);
    return !signal?.aborted;
  }

  try {
    while (pending.length > 0 && !signal?.aborted) {
      const now = Date.now();
      if (options.live && pending[0]!.fixTime.getTime() > now) {
        // Nothing due: a heartbeat when the protocol has one and it is time, else wait.
        const beatAt = link?.keepAlive ? lastSentAt + heartbeatMs : Infinity;
        if (beatAt <= now && link?.keepAlive) {
          try {
            await link.keepAlive(acknowledged.at(-1)?.ignition ?? false);
            lastSentAt = Date.now();
            onEvent?.({ kind: "heartbeat" });
          } catch (error) {
            if (!(await failed(error))) break;
          }
          continue;
        }
        await sleep(Math.min(pending[0]!.fixTime.getTime(), beatAt) - now, signal);
        continue;
      }
      try {
        if (!link) {
          const opening = linkFor(options, timeoutMs);
          link = opening;
          await opening.open();
          connections++;
          onEvent?.({ kind: "connected", connection: connections });
        }
        const due = options.live ? pending.findIndex((r) => r.fixTime.getTime() > Date.now()) : -1;
        const batch = pending.slice(0, link.batchOf(due === -1 ? pending : pending.slice(0, due)));
        const resent = batch.some((record) => tried.has(record));
        for (const record of batch) tried.add(record);
        await link.send(batch);
        lastSentAt = Date.now();
        pending.splice(0, batch.length);
        acknowledged.push(...batch);
        failures = 0;
        delay = firstDelay;
        onEvent?.({
          kind: "acknowledged",
          batch,
          acknowledged: acknowledged.length,
          of: options.records.length,
          resent,
        });
      } catch (error) {
        if (!(await failed(error))) break;
      }
    }
  } finally {
    signal?.removeEventListener("abort", closeOnAbort);
    (link as Link | null)?.close();
  }
  if (signal?.aborted && pending.length > 0) stopped = "stopped";
  return { acknowledged, pending, connections, stopped };
}
