import { getServerSession } from "next-auth";
import { redirect } from "next/navigation";
import { cache } from "react";
import { z } from "zod";
import { partnerAuthOptions } from "./auth-options";
import { findPartnerUser } from "./partner-users";

const sessionShape = z.object({
  partner: z.object({
    kind: z.literal("partner"),
    partnerUserId: z.number().int().positive(),
    email: z.string(),
    name: z.string(),
    sid: z.string().min(16),
  }),
});

export type PartnerSession = Omit<z.infer<typeof sessionShape>["partner"], "kind">;

// The signed-in partner, or null. Only the partner cookie is read (auth-options.ts), its token
// must say kind "partner", and the partner must still exist. Asked once a request while a page
// renders (an app's layout and its page both ask: cache()); outside React each call asks anew.
export const getPartnerSession = cache(async (): Promise<PartnerSession | null> => {
  const parsed = sessionShape.safeParse(await getServerSession(partnerAuthOptions()));
  if (!parsed.success) return null;
  const { kind: _kind, ...partner } = parsed.data.partner;
  const user = await findPartnerUser(partner.partnerUserId);
  if (!user) return null;
  return { ...partner, email: user.email, name: user.name };
});

/** For console pages: the partner, or a redirect to the sign-in page that comes back here. */
export async function requirePartner(returnTo: string): Promise<PartnerSession> {
  const session = await getPartnerSession();
  if (!session) redirect(`/console/sign-in?callbackUrl=${encodeURIComponent(returnTo)}`);
  return session;
}
