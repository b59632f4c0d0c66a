import { authorizationServerMetadata } from "@/server/oauth/metadata";

export const dynamic = "force-dynamic";

// GET /.well-known/oauth-authorization-server — RFC 8414 metadata of the production issuer
export const GET = () =>
  Response.json(authorizationServerMetadata("production"), {
    headers: { "Cache-Control": "public, max-age=3600", "Access-Control-Allow-Origin": "*" },
  });
