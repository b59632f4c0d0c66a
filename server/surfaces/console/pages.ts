import { notFound } from "next/navigation";
import { cache } from "react";
import { z } from "zod";
import { appOverview } from "./apps";
import { consoleCsrfToken } from "./csrf";
import { ApiError } from "@/common/http/errors";
import { getPartnerSession, requirePartner, type PartnerSession } from "./session";

// Page loaders' common steps: the partner (or the sign-in page), the app id from the URL, the
// environment from ?env, and a 404 page for anything the partner does not own.

export { pageEnvironment } from "@/common/console/page-environment";

export const pageId = (raw: string): number => {
  const parsed = z
    .string()
    .regex(/^\d{1,10}$/)
    .safeParse(raw);
  if (!parsed.success) notFound();
  return Number(parsed.data);
};

export async function consolePage(returnTo: string): Promise<{ session: PartnerSession; csrfToken: string }> {
  const session = await requirePartner(returnTo);
  return { session, csrfToken: consoleCsrfToken(session) };
}

// The app of an app's layout and of its page, loaded once a request: both ask (Next renders them
// side by side, so each checks for itself), and React's cache() gives the second the first's answer.
const ownedApp = cache(async (partnerUserId: number, appId: number) => {
  const overview = await ownedOr404(() => appOverview(partnerUserId, appId));
  if ("refused" in overview) throw new Error(overview.refused);
  return overview;
});

/** An app's page: the partner (or the sign-in page, coming back to returnTo) and the app, or the 404 page if it is not theirs. */
export async function consoleAppPage(appId: number, returnTo: string) {
  const { session, csrfToken } = await consolePage(returnTo);
  return { session, csrfToken, overview: await ownedApp(session.partnerUserId, appId) };
}

/**
 * The frame of an app's pages (its layout): the partner and the app, the 404 page if it is not theirs,
 * or null when no partner is signed in, for the page to send to the sign-in page with its own address.
 */
export async function consoleAppFrame(appId: number) {
  const session = await getPartnerSession();
  return session && { session, overview: await ownedApp(session.partnerUserId, appId) };
}

/** Runs a loader; "not yours" becomes the 404 page, other console refusals come back as a message. */
export async function ownedOr404<T>(load: () => Promise<T>): Promise<T | { refused: string }> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof ApiError && error.code === "NOT_FOUND") notFound();
    if (error instanceof ApiError && error.status < 500) return { refused: error.detail };
    throw error;
  }
}
