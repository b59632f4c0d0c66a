import { referenceBundle } from "@/server/openapi/reference-bundle";

// GET /docs/assets/api-reference.js — the reference renderer's browser bundle, from our own origin.
export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }) {
  if ((await params).file !== "api-reference.js") return new Response("Not found", { status: 404 });
  return new Response(new Uint8Array(await referenceBundle()), {
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=86400" },
  });
}
