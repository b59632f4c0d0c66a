import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env } from "@/server/platform/env";

const FILE = "auth-secret";

let cached: string | undefined;

// The key that signs session cookies and form CSRF tokens (docs/operations.md: generated on first start,
// kept under DATA_DIR, so `npm start` needs no configuration). NEXTAUTH_SECRET overrides it. The
// file appears whole through a hard link, which fails if another process linked first: processes
// starting together agree on one secret and never read a half-written one.
export function sessionSecret(): string {
  if (cached) return cached;
  const config = env();
  if (config.NEXTAUTH_SECRET) return (cached = config.NEXTAUTH_SECRET);
  const file = path.join(config.dataDir, FILE);
  fs.mkdirSync(config.dataDir, { recursive: true });
  if (!fs.existsSync(file)) {
    const draft = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
    fs.writeFileSync(draft, `${randomBytes(32).toString("base64url")}\n`, { mode: 0o600 });
    try {
      fs.linkSync(draft, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      fs.rmSync(draft, { force: true });
    }
  }
  const secret = fs.readFileSync(file, "utf8").trim();
  if (secret.length < 32)
    throw new Error(`${file} holds no usable secret: delete it to have a new one generated (signs everyone out).`);
  return (cached = secret);
}
