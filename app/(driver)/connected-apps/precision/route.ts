import { seeOther, withDriverForm } from "@/server/http/with-driver-form";
import { changePrecisionFromSite } from "@/server/surfaces/driver/precision-form";

// POST /connected-apps/precision — a driver changes how precisely an app sees their vehicles (303 back)
export const POST = withDriverForm(
  { form: "location form", signInReturn: "/connected-apps" },
  async ({ session, form }) => seeOther(await changePrecisionFromSite(session, form)),
);
