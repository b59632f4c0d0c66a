import type { Metadata } from "next";
import { PartnerAuthPage, partnerAuthTitle, type PartnerAuthSearchParams } from "@/app/console/partner-auth-page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: partnerAuthTitle("sign-in") };

// /console/sign-in (the page is app/console/partner-auth-page.tsx, shared with sign-up)
export default function SignInPage({ searchParams }: { searchParams: PartnerAuthSearchParams }) {
  return <PartnerAuthPage mode="sign-in" searchParams={searchParams} />;
}
