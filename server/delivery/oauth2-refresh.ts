import { z } from "zod";
import { postHttps, type DeliveryNetwork } from "./https-client";

// The token dance of an oauth2 delivery (docs/delivery.md#answers): after a 401, POST
// <redirect_uri>?grant_type=refresh_token&client_id=…&client_secret=…&refresh_token=… and take
// access_token and refresh_token from the JSON answer. The refresh endpoint is a partner URL like
// any other: same HTTPS rules and SSRF guard.

export const oauth2Schema = z.object({
  access_token: z.string().min(1),
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
  refresh_token: z.string().min(1),
  redirect_uri: z.string().min(1),
});
export type OAuth2Map = z.infer<typeof oauth2Schema>;

const tokenAnswer = z.object({ access_token: z.string().min(1), refresh_token: z.string().min(1) });

export type RefreshResult =
  | {
      ok: true;
      tokens: { access_token: string; refresh_token: string };
      status: number;
      latencyMs: number;
      url: string;
    }
  | { ok: false; reason: string; status: number | null; latencyMs: number; url: string; excerpt: string | null };

export async function refreshAccessToken(oauth2: OAuth2Map, network: DeliveryNetwork): Promise<RefreshResult> {
  let url: URL;
  try {
    url = new URL(oauth2.redirect_uri);
  } catch {
    return {
      ok: false,
      reason: "redirect_uri is not a URL",
      status: null,
      latencyMs: 0,
      url: oauth2.redirect_uri,
      excerpt: null,
    };
  }
  url.searchParams.set("grant_type", "refresh_token");
  url.searchParams.set("client_id", oauth2.client_id);
  url.searchParams.set("client_secret", oauth2.client_secret);
  url.searchParams.set("refresh_token", oauth2.refresh_token);
  const answer = await postHttps({ url: url.toString(), headers: { accept: "application/json" }, body: "", network });
  // Recorded without the secret and the refresh token.
  const shown = new URL(url);
  shown.searchParams.set("client_secret", "…");
  shown.searchParams.set("refresh_token", "…");
  if (!answer.ok)
    return {
      ok: false,
      reason: `token refresh failed: ${answer.error}`,
      status: null,
      latencyMs: answer.latencyMs,
      url: shown.toString(),
      excerpt: null,
    };
  if (answer.status < 200 || answer.status >= 300) {
    return {
      ok: false,
      reason: `token refresh answered HTTP ${answer.status}`,
      status: answer.status,
      latencyMs: answer.latencyMs,
      url: shown.toString(),
      excerpt: answer.excerpt,
    };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.excerpt);
  } catch {
    return {
      ok: false,
      reason: "token refresh answer is not JSON",
      status: answer.status,
      latencyMs: answer.latencyMs,
      url: shown.toString(),
      excerpt: answer.excerpt,
    };
  }
  const tokens = tokenAnswer.safeParse(parsed);
  if (!tokens.success) {
    return {
      ok: false,
      reason: "token refresh answer lacks access_token or refresh_token",
      status: answer.status,
      latencyMs: answer.latencyMs,
      url: shown.toString(),
      excerpt: answer.excerpt,
    };
  }
  return { ok: true, tokens: tokens.data, status: answer.status, latencyMs: answer.latencyMs, url: shown.toString() };
}
