// What every protocol decoder returns: the device's records in one shape, whatever the wire
// (docs/devices.md). Units are the ones the protocols share (Traccar's): knots, degrees, metres.

/** A value as the device sent it: a number, a text or a flag. */
export type AttributeValue = number | string | boolean;

/**
 * An alarm the device raised, by the name Traccar gives it (`sos`, `powerCut`, `vibration`, …):
 * data-points.ts turns the ones our key catalogue has an event for into that event.
 */
type DeviceAlarm = string;

export type DeviceRecord = {
  /** The id the device sent (an IMEI with its leading zeros, or an app's identifier). */
  deviceId: string;
  /** When the position was fixed (UTC); for a message without a fix, when it was received. */
  fixTime: Date;
  /** Where the device was; null when it reports no position (no fix yet, a heartbeat). */
  position: { latitude: number; longitude: number } | null;
  /** Whether the receiver had a fix; a device without one repeats its last known position. */
  valid: boolean;
  speedKnots?: number;
  /** Degrees clockwise from north. */
  course?: number;
  /** Metres above sea level. */
  altitude?: number;
  /** Metres. */
  accuracy?: number;
  ignition?: boolean;
  /** The device's own odometer. */
  odometerMeters?: number;
  /** The vehicle's supply voltage as the device measures it. */
  powerMillivolts?: number;
  alarm?: DeviceAlarm;
  /** Everything else, by an upper-case name (`BATTERY_LEVEL`, `IO_21`): each becomes `DEVICE_<NAME>`. */
  attributes: Record<string, AttributeValue>;
};

/**
 * Why bytes or a request were refused: the connection is closed (or 400 answered), nothing stored.
 * With the device id they named, when they got that far (an OsmAnd request names it in itself).
 */
export type Refusal = { refused: string; deviceId?: string };

export const refusal = (reason: string, deviceId?: string): Refusal =>
  deviceId === undefined ? { refused: reason } : { refused: reason, deviceId };
