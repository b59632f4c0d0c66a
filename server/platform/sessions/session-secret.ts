import { randomBytes } from "node:crypto";
import path from "node:path";
import { env } from "@/server/platform/env";
import { dataDirSecret } from "@/server/platform/security/data-dir-secret";

const FILE = "auth-secret";

let cached: string | undefined;

// The key that signs session cookies and form CSRF tokens (docs/operations.md: generated on first start,
// kept under DATA_DIR, so `npm start` needs no configuration). NEXTAUTH_SECRET overrides it.
export function sessionSecret(): string {
  if (cached) return cached;
  const config = env();
  if (config.NEXTAUTH_SECRET) return (cached = config.NEXTAUTH_SECRET);
  const secret = dataDirSecret(config.dataDir, FILE, () => randomBytes(32).toString("base64url"));
  if (secret.length < 32)
    throw new Error(
      `${path.join(config.dataDir, FILE)} holds no usable secret: delete it to have a new one generated (signs everyone out).`,
    );
  return (cached = secret);
}
