import { z } from "zod";
import { db } from "@/db/client";
import type { Environment } from "@/db/schema";
import { redirectUriProblem } from "@/server/apps/redirect-uris";
import { insertApp, issueCredential, rotateClientSecret, type Credentials } from "@/server/apps/service";
import type { FieldError } from "@/common/http/errors";
import {
  credentialsOf,
  findOwnedApp,
  insertOwner,
  listOwnedApps,
  markObligationsConfirmed,
  updateAppRow,
  type OwnedApp,
} from "./app-queries";
import { ApiError } from "@/common/http/errors";
import { notOwned } from "./errors";

const name = z.string().trim().min(1, "Give the app a name.").max(80, "At most 80 characters.");
const publisher = z.string().trim().max(80, "At most 80 characters.");
// One URI per line in the form; blank lines ignored.
const uriLines = z
  .string()
  .max(8000, "Too long.")
  .transform((text) => [
    ...new Set(
      text
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter(Boolean),
    ),
  ])
  .pipe(
    z
      .array(z.string().max(2000, "A redirect URI may have at most 2000 characters."))
      .max(20, "At most 20 redirect URIs."),
  );
const clientType = z.enum(["confidential", "public"], "Choose confidential or public.");

export const appInput = z.object({
  name,
  ownerName: publisher.default(""),
  redirectUris: uriLines.default([]),
  clientType: clientType.default("confidential"),
});
export type AppInput = z.output<typeof appInput>;

/**
 * The redirect URI rules (docs/oauth.md#authorization-page) per URI, as the sandbox accepts them
 * (production is stricter, checked per request and shown in the page).
 */
function redirectUriErrors(uris: string[]): FieldError[] {
  const problems = uris.map((uri) => ({ uri, problem: redirectUriProblem(uri, "sandbox") })).filter((p) => p.problem);
  return problems.length
    ? [
        {
          fieldName: "redirectUris",
          errorCode: "INVALID",
          errorDisplay: problems.map((p) => `${p.uri}: ${p.problem}`).join(" "),
        },
      ]
    : [];
}

export async function listApps(partnerUserId: number) {
  return listOwnedApps(db(), { partnerUserId });
}

export async function getOwnedApp(partnerUserId: number, appId: number): Promise<OwnedApp> {
  const app = await findOwnedApp(db(), { partnerUserId, appId });
  if (!app) throw notOwned();
  return app;
}

export async function appOverview(partnerUserId: number, appId: number) {
  const app = await getOwnedApp(partnerUserId, appId);
  const credentials = await credentialsOf(db(), { appId });
  const of = (environment: Environment) => credentials.find((c) => c.environment === environment) ?? null;
  return { app, sandbox: of("sandbox"), production: of("production") };
}

// A new app owned by the partner, with its sandbox credential only (production follows the
// obligations confirmation). The sandbox secret is returned once.
export async function createConsoleApp(
  partnerUserId: number,
  input: AppInput,
): Promise<{ appId: number; sandbox: Credentials }> {
  const errors = redirectUriErrors(input.redirectUris);
  if (errors.length) throw new ApiError("VALIDATION", "Check the highlighted fields.", errors);
  return db().transaction(async (tx) => {
    const app = await insertApp(tx, {
      name: input.name,
      ownerName: input.ownerName || null,
      redirectUris: input.redirectUris,
      isPublic: input.clientType === "public",
    });
    await insertOwner(tx, { appId: app.id, partnerUserId });
    return { appId: app.id, sandbox: app.sandbox };
  });
}

export async function updateConsoleApp(partnerUserId: number, appId: number, input: AppInput): Promise<void> {
  await getOwnedApp(partnerUserId, appId);
  const errors = redirectUriErrors(input.redirectUris);
  if (errors.length) throw new ApiError("VALIDATION", "Check the highlighted fields.", errors);
  await updateAppRow(db(), {
    appId,
    values: {
      name: input.name,
      ownerName: input.ownerName || null,
      redirectUris: input.redirectUris,
      isPublic: input.clientType === "public",
    },
  });
}

// A new client secret; the old one is refused by the token endpoint from this moment on.
// Tokens already issued stay valid until they expire or are revoked.
export async function rotateSecret(
  partnerUserId: number,
  appId: number,
  environment: Environment,
): Promise<Credentials> {
  return db().transaction(async (tx) => {
    if (!(await findOwnedApp(tx, { partnerUserId, appId, forUpdate: true }))) throw notOwned();
    const rotated = await rotateClientSecret(tx, { appId, environment });
    if (!rotated)
      throw new ApiError(
        "CANNOTPERSIST",
        "This app has no production credentials yet: confirm the partner obligations first.",
      );
    return rotated;
  });
}

// The obligations (docs/console.md#credentials): a partner creating accounts must tell users their credentials, link to the
// driver site and say the data is collected on their behalf. Confirming records the time and
// issues the production credential, once (the app row is locked: two clicks issue one pair).
export async function confirmObligations(
  partnerUserId: number,
  appId: number,
  confirmations: { credentials: boolean; driverSite: boolean; dataStatement: boolean },
): Promise<Credentials> {
  const missing: FieldError[] = Object.entries(confirmations)
    .filter(([, v]) => !v)
    .map(([fieldName]) => ({
      fieldName,
      errorCode: "REQUIRED",
      errorDisplay: "Confirm this obligation to get production credentials.",
    }));
  if (missing.length) throw new ApiError("VALIDATION", "All three obligations must be confirmed.", missing);
  return db().transaction(async (tx) => {
    const app = await findOwnedApp(tx, { partnerUserId, appId, forUpdate: true });
    if (!app) throw notOwned();
    if (app.obligationsConfirmedAt)
      throw new ApiError(
        "CANNOTPERSIST",
        "Production credentials were already issued; rotate the secret if you lost it.",
      );
    await markObligationsConfirmed(tx, { appId, at: new Date() });
    return issueCredential(tx, { appId, environment: "production" });
  });
}
