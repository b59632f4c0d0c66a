import type { ReactNode } from "react";
import type { DeviceProtocol, DeviceRefusal } from "@/server/devices/device-status";

// A device's last refusal in plain words, for a driver who never read a protocol's specification:
// the gateway records why as a short technical phrase ("bad CRC"); the usual ones are said here as
// a person would, the rest shown as recorded.

export const PROTOCOL_NAMES: Record<DeviceProtocol, string> = {
  osmand: "OsmAnd (phone app)",
  teltonika: "Teltonika",
  gt06: "GT06 / Concox",
};

const PLAIN: Record<string, string> = {
  "bad CRC": "a damaged message (its checksum did not match)",
  "a message before the login": "data before it had logged in",
};

export function refusalWords(
  refusal: DeviceRefusal,
  device: { deviceId: string; protocol: DeviceProtocol | null },
  time: ReactNode,
): ReactNode {
  const by = device.protocol ? ` (${PROTOCOL_NAMES[device.protocol]})` : "";
  if (refusal.unknownId)
    return (
      <>
        This device tried to connect at {time} with id <code className="font-mono">{device.deviceId}</code>
        {by}, but no vehicle had that id yet.
      </>
    );
  return (
    <>
      At {time} the device{by} sent {PLAIN[refusal.reason] ?? `something refused: ${refusal.reason}`}, and it was not
      stored. A tracker sends again what was not acknowledged.
    </>
  );
}
