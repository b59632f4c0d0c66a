import { preflight } from "@/server/http/cors";
import { one } from "@/server/http/results";
import { otherMethods } from "@/server/http/method-not-allowed";
import { withApi } from "@/server/http/with-api";
import { deviceOperations as ops } from "@/server/devices/operations";
import { readDeviceStatus } from "@/server/devices/device-status";
import { serializeDeviceStatus } from "@/server/devices/serialize";

// GET /vehicle/{id}/device — what the device gateway saw of the vehicle's device
export const GET = withApi(ops.get, async ({ principal, params }) =>
  one(serializeDeviceStatus(await readDeviceStatus(principal, params.vehicleId))),
);

export const OPTIONS = preflight;

// Any other method: 405 with Allow naming the methods above
export const { PUT, PATCH, DELETE, POST } = otherMethods(ops.get);
