import { createHash, randomBytes } from "node:crypto";
import { expect } from "vitest";
import { api, tokenRequest, type Credentials, type Env } from "./api";
import { authorizeUrl, Browser, redirectParams } from "./browser";
import { apps } from "./fixtures";

// Building blocks of the authorization-page tests: PKCE pairs, authorization requests, a signed-in
// driver, and the code (or token) at the end of the flow.

export const CALLBACK = "https://partner.example/callback";

export function pkcePair() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export const newState = () => randomBytes(12).toString("base64url");

export function codeRequest(creds: Credentials, extra: Record<string, string> = {}): Record<string, string> {
  return { client_id: creds.clientId, redirect_uri: CALLBACK, response_type: "code", state: newState(), ...extra };
}

/** A browser signed in as a driver registered just now (no app has access to the account yet). */
export async function newDriver(env: Env = "sandbox") {
  const browser = new Browser();
  const account = await browser.register(env);
  return { browser, ...account };
}

/** Runs an authorization request to its code, allowing on the consent page if asked. */
export async function authorizeCode(browser: Browser, params: Record<string, string>, path?: string) {
  const location = await browser.authorizeAndAllow(authorizeUrl(params, path));
  const got = redirectParams(location);
  expect(got.code, `no code in ${location}`).toBeTruthy();
  if (params.state) expect(got.state).toBe(params.state);
  return { code: got.code!, location };
}

export function exchangeCode(
  creds: Credentials,
  code: string,
  extra: Record<string, string> = { redirect_uri: CALLBACK },
) {
  return tokenRequest({ grant_type: "authorization_code", code, ...extra }, { basic: creds });
}

/** What an access token gets on the API: 200 when it works, 401 when not. */
export async function apiStatus(token: string, env: Env = "sandbox") {
  return (await api(env).get("/account/", token)).status;
}

export const webApp = (env: Env = "sandbox") => apps().web[env];
export const nativeApp = (env: Env = "sandbox") => apps().native[env];
