import type { DriverSession } from "@/server/surfaces/driver/session";
import { createShareLink, endShareLink, listShareLinks, type ShareLinkOut } from "@/server/sharing/service";
import { driverPrincipal } from "./principal";

// The vehicle page's shared locations: make a link, list the active ones with their views, end one.
// Through the sharing service with the driver's principal: another account's vehicle or link is 404.

function principalOf(session: DriverSession) {
  const principal = driverPrincipal(session);
  if (principal.kind !== "user") throw new Error("the driver site acts for its account");
  return principal;
}

export const createDriverShare = (session: DriverSession, vehicleId: number, body: unknown): Promise<ShareLinkOut> =>
  createShareLink(principalOf(session), String(vehicleId), body);

export const listDriverShares = (session: DriverSession, vehicleId: number): Promise<ShareLinkOut[]> =>
  listShareLinks(principalOf(session), String(vehicleId));

export const endDriverShare = (session: DriverSession, vehicleId: number, shareId: number): Promise<void> =>
  endShareLink(principalOf(session), String(vehicleId), shareId);
