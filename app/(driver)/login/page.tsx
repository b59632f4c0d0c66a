import type { Metadata } from "next";
import Link from "next/link";
import { AuthPanel } from "@/components/auth/auth-panel";
import { SiteHeader } from "@/components/site/site-header";
import { Card, NarrowPage } from "@/components/ui/card";
import { cookies } from "next/headers";
import { localPathOr } from "@/server/platform/request/local-path";
import { REMEMBERED_ENVIRONMENT_COOKIE, signInEnvironment } from "@/common/auth/sign-in-environment";
import { getDriverSession } from "@/server/surfaces/driver/session";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

// /login — the driver site's sign-in (docs/driver-site.md), with the environment switch: a sandbox
// account signs in to the sandbox. `callbackUrl` (a path on this site) is where to go next.
export default async function LoginPage({ searchParams }: Props) {
  const query = await searchParams;
  const next = localPathOr(query.callbackUrl, "/map");
  const session = await getDriverSession();
  const defaultEnvironment = signInEnvironment(
    query.environment,
    (await cookies()).get(REMEMBERED_ENVIRONMENT_COOKIE)?.value,
  );

  return (
    <>
      <SiteHeader session={session} />
      <NarrowPage>
        <Card>
          <h1 className="text-2xl font-bold tracking-tight">Sign in to Wayline</h1>
          {query.deleted === "1" && !session ? (
            <p role="status" className="mt-2 rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
              Your account and all its vehicles and data have been deleted.
            </p>
          ) : null}
          {session ? (
            <p className="mt-2 rounded-lg bg-blue-50 px-3 py-2 text-sm text-blue-900">
              You are signed in to {session.environment} as {session.username}.{" "}
              <Link className="font-semibold underline" href={next}>
                Continue
              </Link>{" "}
              or sign in with another account below.
            </p>
          ) : (
            <p className="mt-2 text-sm text-slate-700">
              See your vehicles and control which apps can reach your account.
            </p>
          )}
          <div className="mt-6">
            <AuthPanel
              environment={null}
              defaultEnvironment={defaultEnvironment}
              continueTo={next}
              initialMode={query.mode === "register" ? "register" : "sign-in"}
            />
          </div>
        </Card>
      </NarrowPage>
    </>
  );
}
