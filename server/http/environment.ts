import type { Environment } from "@/db/schema";
import { notFound } from "@/common/http/errors";

// The path segment before "api": v1 is production, sandbox is the sandbox (docs/api.md#environments-and-base-paths).
export function environmentFromSegment(segment: string | undefined): Environment {
  if (segment === "v1") return "production";
  if (segment === "sandbox") return "sandbox";
  throw notFound("path");
}
