import { notFound } from "next/navigation";
import { z } from "zod";
import type { Environment } from "@/db/schema";
import { appOverview } from "./apps";
import { consoleCsrfToken } from "./csrf";
import { ApiError } from "@/common/http/errors";
import { requirePartner, type PartnerSession } from "./session";

// Page loaders' common steps: the partner (or the sign-in page), the app id from the URL, the
// environment from ?env, and a 404 page for anything the partner does not own.

export const pageId = (raw: string): number => {
  const parsed = z
    .string()
    .regex(/^\d{1,10}$/)
    .safeParse(raw);
  if (!parsed.success) notFound();
  return Number(parsed.data);
};

export const pageEnvironment = (raw: unknown): Environment => (raw === "production" ? "production" : "sandbox");

export async function consolePage(returnTo: string): Promise<{ session: PartnerSession; csrfToken: string }> {
  const session = await requirePartner(returnTo);
  return { session, csrfToken: consoleCsrfToken(session) };
}

/** An app's page: the partner (or the sign-in page, coming back to returnTo) and the app, or the 404 page if it is not theirs. */
export async function consoleAppPage(appId: number, returnTo: string) {
  const { session, csrfToken } = await consolePage(returnTo);
  const overview = await ownedOr404(() => appOverview(session.partnerUserId, appId));
  if ("refused" in overview) throw new Error(overview.refused);
  return { session, csrfToken, overview };
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
