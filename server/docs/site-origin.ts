import "server-only";
import { headers } from "next/headers";
import { env as config } from "@/server/env";

const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** This site's origin for the docs' examples: PUBLIC_URL when set, else the request's Host (when well-formed). */
export async function siteOrigin(): Promise<string> {
  const configured = config().PUBLIC_URL;
  if (configured) return new URL(configured).origin;
  const host = (await headers()).get("host");
  return host && HOST.test(host) ? `http://${host}` : "http://localhost:3000";
}
