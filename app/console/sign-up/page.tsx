import type { Metadata } from "next";
import Link from "next/link";
import { ConsoleHeader } from "@/components/console/console-header";
import { PartnerAuthForm } from "@/components/console/partner-auth-form";
import { Card, NarrowPage } from "@/components/ui/card";
import { localPathOr } from "@/server/auth/local-path";
import { getPartnerSession } from "@/server/console/session";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Create a partner account" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

// /console/sign-up — partner accounts are not driver accounts: a separate sign-in and session.
export default async function SignUpPage({ searchParams }: Props) {
  const query = await searchParams;
  const next = localPathOr(query.callbackUrl, "/console/apps");
  const session = await getPartnerSession();
  return (
    <>
      <ConsoleHeader session={session} />
      <NarrowPage>
        <div id="main">
          <Card>
            <h1 className="text-2xl font-bold tracking-tight">Create a partner account</h1>
            <p className="mt-2 text-sm text-slate-700">Build on Wayline: apps, sandbox credentials, event subscriptions and notifications in one place. Driver accounts sign in on the <Link className="text-blue-700 underline" href="/login">driver site</Link> instead.</p>
            {session ? (
              <p className="mt-2 rounded-lg bg-blue-50 px-3 py-2 text-sm text-blue-900">
                You are signed in as {session.email}. <Link className="font-semibold underline" href={next}>Continue</Link>
              </p>
            ) : null}
            <div className="mt-6">
              <PartnerAuthForm mode="sign-up" continueTo={next} />
            </div>
            <p className="mt-4 text-sm">
              <Link className="inline-block min-h-11 content-center font-semibold text-blue-700 underline" href={`/console/sign-in?callbackUrl=${encodeURIComponent(next)}`}>
                Already have an account? Sign in
              </Link>
            </p>
          </Card>
        </div>
      </NarrowPage>
    </>
  );
}
