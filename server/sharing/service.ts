import { randomBytes } from "node:crypto";
import { ApiError, notFound } from "@/common/http/errors";
import { parseOrThrow } from "@/common/http/zod-errors";
import type { Principal } from "@/server/api-auth/principal";
import { getVisibleVehicle } from "@/server/vehicles/service";
import { vehicleName } from "@/server/vehicles/serialize";
import { announceShareEnd } from "./ends";
import {
  activeLinksOfVehicle,
  endLink,
  insertShareLink,
  insertView,
  linkByToken,
  linksOfAccount,
  viewsOfAccount,
} from "./queries";
import { createShareBody, SHARE_DURATIONS, shareToken } from "./schemas";

// Shared live locations (docs/driver-site.md#share-a-live-location): the driver's side (make, list,
// end: the vehicle's owner only, anyone else's vehicle or link is a 404) and the page's side (what a
// token shows: the vehicle's label and its position, nothing else of the account; no position while
// location is paused; 410 once the link ended or expired; an unknown token 404).

type Driver = Principal & { kind: "user" };

export type ShareLinkOut = {
  id: number;
  token: string;
  createdAt: string;
  endsAt: string;
  views: number;
  lastViewedAt: string | null;
};

/** What the shared page, its stream and its poll show while the link is active. */
export type SharedLocation = {
  state: "live";
  label: string;
  endsAt: string;
  running: boolean;
  /** The driver paused location: no position is shown. */
  paused: boolean;
  position: { latitude: number; longitude: number; at: string } | null;
};
export type SharedEnded = { state: "ended" };

const iso = (d: Date | string) => new Date(d).toISOString();

export async function createShareLink(driver: Driver, vehicleRef: string, body: unknown): Promise<ShareLinkOut> {
  const vehicle = await getVisibleVehicle(driver, vehicleRef);
  const { duration } = parseOrThrow(createShareBody, body, "share form");
  const row = await insertShareLink({
    accountId: vehicle.accountId,
    vehicleId: vehicle.id,
    token: randomBytes(16).toString("base64url"),
    endsAt: new Date(Date.now() + SHARE_DURATIONS[duration]),
  });
  return {
    id: row.id,
    token: row.token,
    createdAt: iso(row.createdAt),
    endsAt: iso(row.endsAt),
    views: 0,
    lastViewedAt: null,
  };
}

/** The vehicle's links that have not ended, with their views. */
export async function listShareLinks(driver: Driver, vehicleRef: string): Promise<ShareLinkOut[]> {
  const vehicle = await getVisibleVehicle(driver, vehicleRef);
  const rows = await activeLinksOfVehicle({ accountId: vehicle.accountId, vehicleId: vehicle.id });
  return rows.map((r) => ({
    id: r.id,
    token: r.token,
    createdAt: iso(r.createdAt),
    endsAt: iso(r.endsAt),
    views: r.views,
    lastViewedAt: r.lastViewedAt ? iso(r.lastViewedAt) : null,
  }));
}

/** Ends one of the driver's active links at once; open pages show it within seconds. */
export async function endShareLink(driver: Driver, vehicleRef: string, linkId: number): Promise<void> {
  const vehicle = await getVisibleVehicle(driver, vehicleRef);
  const ended = await endLink({ accountId: vehicle.accountId, vehicleId: vehicle.id, linkId });
  if (!ended) throw notFound("shared link");
  await announceShareEnd(ended.id);
}

export type ResolvedShare = { token: string; linkId: number; accountId: number; endsAt: Date; view: SharedLocation };

/** The active link a token names: 404 for a token no link has, 410 for one that ended or expired. */
export async function resolveShare(token: string): Promise<ResolvedShare> {
  if (!shareToken.safeParse(token).success) throw notFound("shared link");
  const row = await linkByToken(token);
  if (!row) throw notFound("shared link");
  if (!row.active) throw new ApiError("GONE", "This shared location has ended.");
  const hasPosition = !row.paused && row.latitude !== null && row.longitude !== null && row.at !== null;
  return {
    token,
    linkId: row.id,
    accountId: row.accountId,
    endsAt: row.endsAt,
    view: {
      state: "live",
      label: row.label || vehicleName(row),
      endsAt: iso(row.endsAt),
      running: row.running,
      paused: row.paused,
      position: hasPosition ? { latitude: row.latitude!, longitude: row.longitude!, at: iso(row.at!) } : null,
    },
  };
}

/** An opening of the shared page: counted as a view (a line of the driver's access log). */
export async function viewShare(token: string): Promise<SharedLocation> {
  const resolved = await resolveShare(token);
  await insertView(resolved.linkId);
  return resolved.view;
}

/** Each view of the account's links since `since`, newest first: the access log's "shared link" lines. */
export async function shareViewsOfAccount(accountId: number, since: Date) {
  const rows = await viewsOfAccount({ accountId, since });
  return rows.map((r) => ({
    linkId: r.linkId,
    vehicleId: r.vehicleId,
    vehicle: r.label || vehicleName(r),
    viewedAt: iso(r.viewedAt),
  }));
}

/** The account's links for its data export (the tokens left out: they are keys, not data). */
export async function shareLinksForExport(accountId: number) {
  const rows = await linksOfAccount(accountId);
  return rows.map((r) => ({
    id: r.id,
    vehicleId: r.vehicleId,
    createdAt: iso(r.createdAt),
    endsAt: iso(r.endsAt),
    endedAt: r.endedAt ? iso(r.endedAt) : null,
    views: r.views,
  }));
}
