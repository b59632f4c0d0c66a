import "server-only";
import { connection } from "next/server";
import { publicOrigin } from "@/server/platform/request/public-origin";

/** This site's origin for the docs' examples: the configured one (public-origin.ts), never the request's Host. */
export async function siteOrigin(): Promise<string> {
  // Rendered per request, not at build time: the origin is the running service's configuration.
  await connection();
  return publicOrigin();
}
