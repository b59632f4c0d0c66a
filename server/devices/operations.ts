import { operation } from "@/common/http/operation";
import { vehicleRefParams } from "@/server/vehicles/schemas";
import { deviceOut } from "./schemas";

export const deviceOperations = {
  get: operation({
    method: "GET",
    path: "/vehicle/{vehicleId}/device",
    tag: "Vehicles",
    summary: "What the device gateway saw of the vehicle's device",
    description:
      "The tracker or phone app whose id is the vehicle's deviceId: the protocol it speaks, whether it holds a " +
      "connection open now, when it was last heard from, its newest record, its records today (UTC) and the last " +
      "contact refused, also from before the vehicle named the id. The same callers as GET /vehicle/{vehicleId}; " +
      "a vehicle without a deviceId answers deviceId null with nothing heard.",
    auth: "any",
    params: vehicleRefParams,
    response: { key: "device", schema: deviceOut },
  }),
};
