import { redirect } from "next/navigation";
import { getPartnerSession } from "@/server/surfaces/console/session";

export const dynamic = "force-dynamic";

// /console — the apps when signed in, else the sign-in page.
export default async function ConsoleHome() {
  redirect((await getPartnerSession()) ? "/console/apps" : "/console/sign-in");
}
