import { z } from "zod";
import { dateTimeOut } from "@/common/http/fields";

// GET /vehicle/{id}/device on the wire (docs/devices.md#seeing-the-device).

export const deviceOut = z.object({
  deviceId: z.string().nullable().describe("The vehicle's deviceId: the id the device sends. null: no device named"),
  protocol: z
    .enum(["osmand", "teltonika", "gt06"])
    .nullable()
    .describe("The protocol it last spoke; null until it is heard from"),
  connected: z.boolean().describe("An open TCP connection now (OsmAnd's HTTP requests never hold one)"),
  lastContact: dateTimeOut.nullable().describe("When the gateway last heard from it, refused or not"),
  lastRecordTime: dateTimeOut.nullable().describe("The newest record time (the fix's) stored"),
  recordsToday: z.number().int().describe("Records stored today (UTC), resends not counted"),
  lastRefusal: z
    .object({
      time: dateTimeOut,
      reason: z.string().describe('Why, in words: "no vehicle has this deviceId", "bad CRC", …'),
    })
    .nullable()
    .describe("The last contact refused: an id no vehicle named yet, a frame that failed its checks"),
});

export type DeviceOut = z.infer<typeof deviceOut>;
