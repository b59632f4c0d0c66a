import { handleDriverRevoke } from "@/server/oauth/driver-revoke";

// POST /connected-apps/revoke — a driver ends an app's access to their account (303 back)
export const POST = (request: Request) => handleDriverRevoke(request);
