import { otherMethods } from "@/server/http/with-driver";
import { withApiErrors } from "@/server/http/with-api-errors";
import { resolveShare } from "@/server/sharing/service";

export const dynamic = "force-dynamic";

// GET /share/{token}/position — what the shared page shows now (its fallback while the stream is
// down; not counted as a view); 404 for an unknown token, 410 once the link ended
export const GET = withApiErrors<{ token: string }>(async (_request, { token }) =>
  Response.json((await resolveShare(token)).view, { headers: { "Cache-Control": "no-store" } }),
);

// Any other method: 405 in the API's error body, with Allow naming the method above
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
