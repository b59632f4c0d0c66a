import Link from "next/link";
import { ConsoleHeader } from "@/components/console/console-header";
import { PartnerAuthForm } from "@/components/console/partner-auth-form";
import { Card, NarrowPage } from "@/components/ui/card";
import { localPathOr } from "@/server/platform/request/local-path";
import { getPartnerSession } from "@/server/surfaces/console/session";

export type PartnerAuthSearchParams = Promise<Record<string, string | string[] | undefined>>;

const pages = {
  "sign-in": {
    heading: "Sign in to the partner console",
    other: "/console/sign-up",
    otherLabel: "Create a partner account",
  },
  "sign-up": {
    heading: "Create a partner account",
    other: "/console/sign-in",
    otherLabel: "Already have an account? Sign in",
  },
} as const;

export const partnerAuthTitle = (mode: keyof typeof pages) => pages[mode].heading;

// /console/sign-in and /console/sign-up: partner accounts are not driver accounts, so they have a
// sign-in and session of their own. The two pages differ only in the form's mode and the link to
// the other one.
export async function PartnerAuthPage({
  mode,
  searchParams,
}: {
  mode: keyof typeof pages;
  searchParams: PartnerAuthSearchParams;
}) {
  const query = await searchParams;
  const next = localPathOr(query.callbackUrl, "/console/apps");
  const session = await getPartnerSession();
  const page = pages[mode];
  return (
    <>
      <ConsoleHeader session={session} />
      <NarrowPage>
        <div id="main">
          <Card>
            <h1 className="text-2xl font-bold tracking-tight">{page.heading}</h1>
            <p className="mt-2 text-sm text-slate-700">
              Build on Wayline: apps, sandbox credentials, event subscriptions and notifications in one place. Driver
              accounts sign in on the{" "}
              <Link className="text-blue-700 underline" href="/login">
                driver site
              </Link>{" "}
              instead.
            </p>
            {session ? (
              <p className="mt-2 rounded-lg bg-blue-50 px-3 py-2 text-sm text-blue-900">
                You are signed in as {session.email}.{" "}
                <Link className="font-semibold underline" href={next}>
                  Continue
                </Link>
              </p>
            ) : null}
            <div className="mt-6">
              <PartnerAuthForm mode={mode} continueTo={next} />
            </div>
            <p className="mt-4 text-sm">
              <Link
                className="inline-block min-h-11 content-center font-semibold text-blue-700 underline"
                href={`${page.other}?callbackUrl=${encodeURIComponent(next)}`}
              >
                {page.otherLabel}
              </Link>
            </p>
          </Card>
        </div>
      </NarrowPage>
    </>
  );
}
