import { seeOther, withDriverForm } from "@/server/http/with-driver-form";
import { revokeFromSite } from "@/server/surfaces/driver/revoke-form";

// POST /connected-apps/revoke — a driver ends an app's access to their account (303 back)
export const POST = withDriverForm(
  { form: "revoke form", signInReturn: "/connected-apps" },
  async ({ session, form }) => seeOther(await revokeFromSite(session, form)),
);
