import "server-only";
import { readFile } from "node:fs/promises";
import path from "node:path";

// The API reference's renderer (docs/decisions/0008-api-reference-renderer.md: Scalar's standalone browser bundle), served from
// this origin so /docs loads nothing from the internet. Read once from node_modules and kept.

export const REFERENCE_BUNDLE_VERSION = "1.43.8";
export const REFERENCE_BUNDLE_PATH = `/docs/assets/api-reference.js?v=${REFERENCE_BUNDLE_VERSION}`;

let bundle: Promise<Buffer> | null = null;

export function referenceBundle(): Promise<Buffer> {
  bundle ??= readFile(
    path.join(process.cwd(), "node_modules", "@scalar", "api-reference", "dist", "browser", "standalone.js"),
  ).catch((error: unknown) => {
    bundle = null;
    throw error;
  });
  return bundle;
}
