import type { Environment } from "@/db/schema";
import { inboxToken } from "@/server/inbox/address";
import { findInboxByApp } from "@/server/inbox/queries";
import { receiveInboxRequest } from "@/server/inbox/receive";
import { EXCERPT_BYTES, type HttpAnswer, type HttpFailure } from "./https-client";

// Deliveries to an app's sandbox inbox (docs/delivery.md#sandbox-inbox) skip the network: the signed POST is
// handed to the function behind POST /sandbox/inbox/{token}, and its answer comes back as an
// HTTP answer would (status, latency, excerpt), so the attempt is recorded like any other. This is
// the one exemption from the SSRF guard, and it is exact: this service's origin, the inbox path,
// the token of the notification's own app, and a sandbox notification. Anything else goes to
// postHttps and its guard.

/** Null when `url` is not an inbox URL of this service: the caller posts over HTTPS as usual. */
export async function postToInbox({
  url,
  headers,
  body,
  appId,
  environment,
}: {
  url: string;
  headers: Record<string, string>;
  body: string;
  appId: number;
  environment: Environment;
}): Promise<HttpAnswer | HttpFailure | null> {
  const token = inboxToken(url);
  if (token === null) return null;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  if (environment !== "sandbox")
    return {
      ok: false,
      kind: "refused",
      error: "the sandbox inbox receives sandbox deliveries only",
      latencyMs: elapsed(),
    };
  const own = await findInboxByApp({ appId });
  if (own?.token !== token)
    return { ok: false, kind: "refused", error: "not this app's sandbox inbox", latencyMs: elapsed() };
  // The headers a receiver sees over HTTP, as an HTTP client would add them.
  const sent = { ...headers, host: new URL(url).host, "content-length": String(Buffer.byteLength(body)) };
  const answer = await receiveInboxRequest({ token, method: "POST", headers: sent, body });
  return {
    ok: true,
    status: answer.status,
    location: null,
    retryAfter: undefined,
    excerpt: answer.body.slice(0, EXCERPT_BYTES),
    latencyMs: elapsed(),
  };
}
