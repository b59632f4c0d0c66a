import { env } from "@/server/platform/env";
import { requestOrigin } from "@/server/platform/request/origin";

// Defence in depth for the forms of the driver site, the authorization page and the console (their
// tokens: server/surfaces/driver/csrf.ts, server/surfaces/console/csrf.ts): a browser posting from
// another origin says so (Origin, Sec-Fetch-Site), and such a post is refused even before the token
// is looked at. "Origin: null" (privacy-sensitive contexts) tells nothing either way: the token decides.
export function crossSitePost(request: Request): boolean {
  if (request.headers.get("sec-fetch-site") === "cross-site") return true;
  const origin = request.headers.get("origin");
  if (!origin || origin === "null") return false;
  const ours = new Set([requestOrigin(request)]);
  const publicUrl = env().PUBLIC_URL;
  if (publicUrl) ours.add(new URL(publicUrl).origin);
  return !ours.has(origin);
}
