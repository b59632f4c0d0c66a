import type { DeviceRecord } from "../protocols/record";

/**
 * One protocol's way of getting records acknowledged (teltonika.ts, gt06.ts, osmand.ts), driven by
 * run.ts. Every failure is a StandInError; after one the link is closed and a new one opened.
 */
export interface Link {
  /** Connects and identifies the device (a no-op where each request stands alone). */
  open(): Promise<void>;
  /** How many of `records` (due, in order) go in the next batch: at least 1. */
  batchOf(records: readonly DeviceRecord[]): number;
  /** Sends one batch; resolves once the gateway acknowledged all of it. */
  send(batch: readonly DeviceRecord[]): Promise<void>;
  /** What the device sends while it has nothing to report (GT06's heartbeat), if anything. */
  keepAlive?(ignition: boolean): Promise<void>;
  close(): void;
}
