import type { Metadata } from "next";
import { PartnerAuthPage, partnerAuthTitle, type PartnerAuthSearchParams } from "@/app/console/partner-auth-page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: partnerAuthTitle("sign-up") };

// /console/sign-up (the page is app/console/partner-auth-page.tsx, shared with sign-in)
export default function SignUpPage({ searchParams }: { searchParams: PartnerAuthSearchParams }) {
  return <PartnerAuthPage mode="sign-up" searchParams={searchParams} />;
}
