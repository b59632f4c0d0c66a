import { accessRules } from "@/server/access-log/rules";
import { operation } from "@/common/http/operation";
import { pagingQuery } from "@/common/http/paging";
import { createVehicleBody, updateVehicleBody, vehicleOut, vehicleRefParams } from "./schemas";

export const vehicleOperations = {
  list: operation({
    method: "GET",
    path: "/vehicle/",
    tag: "Vehicles",
    summary: "List the caller's vehicles (50 by default)",
    auth: "any",
    query: pagingQuery,
    access: accessRules.vehicle,
    response: { key: "vehicle", schema: vehicleOut, list: true },
  }),
  get: operation({
    method: "GET",
    path: "/vehicle/{vehicleId}",
    tag: "Vehicles",
    summary: "Read one vehicle, by vehicleId or device serial",
    auth: "any",
    params: vehicleRefParams,
    access: accessRules.vehicle,
    response: { key: "vehicle", schema: vehicleOut },
  }),
  create: operation({
    method: "POST",
    path: "/vehicle/",
    tag: "Vehicles",
    summary: "Add a vehicle",
    auth: "any",
    body: createVehicleBody,
    access: accessRules.vehicle,
    response: { key: "vehicle", schema: vehicleOut },
  }),
  update: operation({
    method: "POST",
    path: "/vehicle/{vehicleId}",
    tag: "Vehicles",
    summary: "Update a vehicle (fields not sent stay unchanged)",
    auth: "any",
    params: vehicleRefParams,
    body: updateVehicleBody,
    access: accessRules.vehicle,
    response: { key: "vehicle", schema: vehicleOut },
  }),
  remove: operation({
    method: "DELETE",
    path: "/vehicle/{vehicleId}",
    tag: "Vehicles",
    summary: "Delete a vehicle permanently, with all its data",
    auth: "any",
    params: vehicleRefParams,
    response: "result",
  }),
};
