import Link from "next/link";
import { redirect } from "next/navigation";
import { SiteHeader } from "@/components/site/site-header";
import { getDriverSession } from "@/server/surfaces/driver/session";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  const session = await getDriverSession();
  // A signed-in driver's home is the map of their vehicles.
  if (session) redirect("/map");
  return (
    <>
      <SiteHeader session={session} />
      <main className="mx-auto flex max-w-3xl flex-col gap-8 px-6 py-16">
        <header className="flex flex-col gap-3">
          <p className="text-sm font-semibold uppercase tracking-wide text-blue-700">Wayline</p>
          <h1 className="text-4xl font-bold tracking-tight">Your vehicles, where they are.</h1>
          <p className="text-lg text-slate-700">
            In-vehicle devices report position, odometer and running state. Drivers see their cars on a map; the apps
            they trust get access through OAuth 2.0 and receive vehicle events as webhooks or e-mail.
          </p>
        </header>
        <section aria-labelledby="developers" className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="developers" className="text-xl font-semibold">
            For developers
          </h2>
          <p className="mt-3 text-slate-700">
            Sign up in the{" "}
            <Link className="text-blue-700 underline" href="/console">
              partner console
            </Link>{" "}
            for sandbox credentials, subscriptions and notifications, and read the{" "}
            <Link className="text-blue-700 underline" href="/docs">
              API reference
            </Link>
            .
          </p>
          <ul className="mt-3 list-disc space-y-1 pl-5 text-slate-700">
            <li>
              REST API: <code className="rounded bg-slate-100 px-1">/v1/api</code> (production) and{" "}
              <code className="rounded bg-slate-100 px-1">/sandbox/api</code> (sandbox)
            </li>
            <li>
              Authorization page: <code className="rounded bg-slate-100 px-1">/OAuth/authorize</code> and{" "}
              <code className="rounded bg-slate-100 px-1">/sandbox/OAuth/authorize</code>
            </li>
            <li>
              Token endpoint: <code className="rounded bg-slate-100 px-1">/oauth/token</code> and{" "}
              <code className="rounded bg-slate-100 px-1">/sandbox/oauth/token</code>; revocation:{" "}
              <code className="rounded bg-slate-100 px-1">/oauth/revoke</code>
            </li>
            <li>
              Server metadata (RFC 8414):{" "}
              <code className="rounded bg-slate-100 px-1">/.well-known/oauth-authorization-server</code> (add{" "}
              <code className="rounded bg-slate-100 px-1">/sandbox</code> for the sandbox)
            </li>
            <li>
              OpenAPI documents:{" "}
              <Link className="text-blue-700 underline" href="/v1/api/openapi.json">
                production
              </Link>{" "}
              and{" "}
              <Link className="text-blue-700 underline" href="/sandbox/api/openapi.json">
                sandbox
              </Link>
            </li>
          </ul>
        </section>
        <section aria-labelledby="drivers" className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="drivers" className="text-xl font-semibold">
            For drivers
          </h2>
          <p className="mt-3 text-slate-700">
            <Link className="text-blue-700 underline" href="/login">
              Sign in
            </Link>{" "}
            to see your vehicles on a live map, replay their trips, and control which apps can reach your account.
          </p>
        </section>
      </main>
    </>
  );
}
