import { operation } from "@/common/http/operation";
import { pagingQuery } from "@/common/http/paging";
import {
  savedRouteBody,
  savedRouteOut,
  savedRouteParams,
  simulationBody,
  simulationOut,
  simulationParams,
  simulationRunParams,
  templateOut,
  templateParams,
} from "./schemas";

const SANDBOX = "Sandbox only: production answers 403 FORBIDDEN. Road data © OpenStreetMap contributors (ODbL).";

export const simulatorOperations = {
  start: operation({
    method: "POST",
    path: "/vehicle/{vehicleId}/simulation/",
    tag: "Simulator",
    summary: "Start a simulated trip for a vehicle",
    description:
      `${SANDBOX} Give start and end (optionally via points: routed on the road network, fastest by speed ` +
      `limit), route (a polyline driven as given), routeId (a saved route) or templateId. realtime: data ` +
      `sets every collectionPeriod seconds (1–300, default 60), speedUp 1–60 times faster, repeat to drive ` +
      `on (back and forth, or round a loop) until stopped. instant: the whole trip at once with past ` +
      `timestamps (startTime, default now minus the trip's duration). seed makes the trip repeatable. One ` +
      `running simulation per vehicle (409).`,
    auth: "any",
    params: simulationParams,
    body: simulationBody,
    response: { key: "simulation", schema: simulationOut },
  }),
  list: operation({
    method: "GET",
    path: "/vehicle/{vehicleId}/simulation/",
    tag: "Simulator",
    summary: "List a vehicle's simulations with their progress, newest first",
    description: SANDBOX,
    auth: "any",
    params: simulationParams,
    query: pagingQuery,
    response: { key: "simulation", schema: simulationOut, list: true },
  }),
  get: operation({
    method: "GET",
    path: "/vehicle/{vehicleId}/simulation/{runId}",
    tag: "Simulator",
    summary: "Read one simulation",
    description: SANDBOX,
    auth: "any",
    params: simulationRunParams,
    response: { key: "simulation", schema: simulationOut },
  }),
  stop: operation({
    method: "DELETE",
    path: "/vehicle/{vehicleId}/simulation/{runId}",
    tag: "Simulator",
    summary: "Stop a simulation (a real-time one parks where it is, ignition OFF)",
    description: SANDBOX,
    auth: "any",
    params: simulationRunParams,
    response: "result",
  }),
  createRoute: operation({
    method: "POST",
    path: "/simulation/route/",
    tag: "Simulator",
    summary: "Save a route for this app's simulations",
    description: `${SANDBOX} name plus start and end (optionally via), or route (a polyline).`,
    auth: "any",
    body: savedRouteBody,
    response: { key: "route", schema: savedRouteOut },
  }),
  listRoutes: operation({
    method: "GET",
    path: "/simulation/route/",
    tag: "Simulator",
    summary: "List this app's saved routes, newest first",
    description: SANDBOX,
    auth: "any",
    query: pagingQuery,
    response: { key: "route", schema: savedRouteOut, list: true },
  }),
  getRoute: operation({
    method: "GET",
    path: "/simulation/route/{routeId}",
    tag: "Simulator",
    summary: "Read one saved route",
    description: SANDBOX,
    auth: "any",
    params: savedRouteParams,
    response: { key: "route", schema: savedRouteOut },
  }),
  deleteRoute: operation({
    method: "DELETE",
    path: "/simulation/route/{routeId}",
    tag: "Simulator",
    summary: "Delete a saved route (runs that used it keep their geometry)",
    description: SANDBOX,
    auth: "any",
    params: savedRouteParams,
    response: "result",
  }),
  listTemplates: operation({
    method: "GET",
    path: "/simulation/template/",
    tag: "Simulator",
    summary: "List the shared route templates (Columbus, OH and Washington, DC)",
    description: SANDBOX,
    auth: "any",
    response: { key: "template", schema: templateOut, list: true },
  }),
  getTemplate: operation({
    method: "GET",
    path: "/simulation/template/{templateId}",
    tag: "Simulator",
    summary: "Read one route template",
    description: SANDBOX,
    auth: "any",
    params: templateParams,
    response: { key: "template", schema: templateOut },
  }),
};
