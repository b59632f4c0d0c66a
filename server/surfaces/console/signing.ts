import { db } from "@/db/client";
import { currentSigningSecret, rotateSigningSecret, signingSecretsInUse } from "@/server/delivery/signing-secrets";
import { findOwnedApp } from "./app-queries";
import { ApiError } from "@/common/http/errors";
import { notOwned } from "./errors";

// The app's webhook signing secret (Standard Webhooks `whsec_…`): listed without its value,
// revealed on request (in that one response, like a new client secret), and rotated with a 24 h
// overlap in which deliveries carry both signatures.

export async function appSigningSecrets(partnerUserId: number, appId: number) {
  if (!(await findOwnedApp(db(), { partnerUserId, appId }))) throw notOwned();
  return signingSecretsInUse(db(), { appId });
}

export async function revealSigningSecret(partnerUserId: number, appId: number): Promise<string> {
  if (!(await findOwnedApp(db(), { partnerUserId, appId }))) throw notOwned();
  const secret = await currentSigningSecret(db(), { appId });
  if (!secret) throw new ApiError("CANNOTPERSIST", "This app has no signing secret: rotate to make one.");
  return secret;
}

export async function rotateAppSigningSecret(partnerUserId: number, appId: number) {
  return db().transaction(async (tx) => {
    if (!(await findOwnedApp(tx, { partnerUserId, appId, forUpdate: true }))) throw notOwned();
    return rotateSigningSecret(tx, { appId });
  });
}
