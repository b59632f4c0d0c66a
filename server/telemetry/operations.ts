import { z } from "zod";
import { booleanish, dateTime, idParam, optional } from "@/common/http/fields";
import { accessRules } from "@/server/access-log/rules";
import { operation } from "@/common/http/operation";
import { pagingQuery } from "@/common/http/paging";
import {
  dataSetOut,
  dataSetParams,
  dataSetPostBody,
  dataSetPostDoc,
  tripOut,
  tripParams,
  vehicleDataParams,
  vehiclePointOut,
} from "./schemas";

const flag = optional(booleanish).transform((v) => v ?? false);

export const telemetryOperations = {
  postDataSet: operation({
    method: "POST",
    path: "/vehicle/{vehicleId}/dataSet/",
    tag: "Device data",
    summary: "Post a data set, or a batch of up to 500 (a JSON array)",
    description:
      "Sandbox: any app with access to the vehicle. Production: apps approved as data providers. A batch is applied in " +
      "timestamp order in one transaction and answered with every data set in timestamp order; a data set at a " +
      "timestamp the vehicle already has is a duplicate and is answered with the stored one, as a read shows it: " +
      "positions at the precision the driver granted, and 403 without the data scope (nothing of the post is written then).",
    auth: "any",
    params: vehicleDataParams,
    body: dataSetPostBody,
    bodyDoc: dataSetPostDoc,
    response: { key: "dataSet", schema: dataSetOut },
  }),
  listDataSets: operation({
    method: "GET",
    path: "/vehicle/{vehicleId}/dataSet/",
    tag: "Device data",
    summary: "List a vehicle's data sets, newest first",
    auth: "any",
    params: vehicleDataParams,
    query: pagingQuery,
    access: accessRules.dataSet,
    response: { key: "dataSet", schema: dataSetOut, list: true },
  }),
  getDataSet: operation({
    method: "GET",
    path: "/vehicle/{vehicleId}/dataSet/{dataSetId}",
    tag: "Device data",
    summary: "Read one data set",
    auth: "any",
    params: dataSetParams,
    access: accessRules.dataSet,
    response: { key: "dataSet", schema: dataSetOut },
  }),
  listTrips: operation({
    method: "GET",
    path: "/vehicle/{vehicleId}/trip/",
    tag: "Device data",
    summary: "List a vehicle's trips, newest first",
    description:
      "startTime and endTime filter on the trip's start (started after / before). includeData=true adds each trip's data sets.",
    auth: "any",
    params: vehicleDataParams,
    query: pagingQuery.extend({ startTime: optional(dateTime), endTime: optional(dateTime), includeData: flag }),
    access: accessRules.trip,
    response: { key: "trip", schema: tripOut, list: true },
  }),
  getTrip: operation({
    method: "GET",
    path: "/vehicle/{vehicleId}/trip/{tripId}",
    tag: "Device data",
    summary: "Read one trip with its data sets",
    auth: "any",
    params: tripParams,
    access: accessRules.trip,
    response: { key: "trip", schema: tripOut },
  }),
  listData: operation({
    method: "GET",
    path: "/vehicle/{vehicleId}/data/",
    tag: "Device data",
    summary: "List a vehicle's data points, newest first",
    description: "key filters on one data key; mostRecentOnly=true returns the newest point of each key.",
    auth: "any",
    params: vehicleDataParams,
    query: pagingQuery.extend({
      key: optional(
        z
          .string()
          .trim()
          .max(64)
          .transform((k) => k.toUpperCase()),
      ),
      mostRecentOnly: flag,
    }),
    access: accessRules.dataPoint,
    response: { key: "data", schema: vehiclePointOut, list: true },
  }),
  accountData: operation({
    method: "GET",
    path: "/account/data/",
    tag: "Device data",
    summary: "Data points of all of an account's vehicles",
    description:
      "sinceLastCall=true returns the points stored since this app's previous call for the account, oldest first (the " +
      "first call returns none and sets the cursor). A client-credentials token names the account with accountId; a " +
      "user token reads its own.",
    auth: "any",
    query: pagingQuery.extend({ sinceLastCall: flag, accountId: optional(idParam) }),
    access: accessRules.dataPoint,
    response: { key: "data", schema: vehiclePointOut, list: true },
  }),
};
