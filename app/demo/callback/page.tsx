import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Card, NarrowPage } from "@/components/ui/card";
import { DEMO } from "@/server/surfaces/demo/seed";
import { env } from "@/server/platform/env";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Demo app callback", robots: { index: false } };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

// /demo/callback — the demo app's redirect URI (server/surfaces/demo/seed.ts), so that a newcomer can try the
// authorization page with nothing but `npm start`: it shows what the app received and how to
// exchange it. Exists only where the demo data is seeded.
export default async function DemoCallbackPage({ searchParams }: Props) {
  if (!env().seedDemo) notFound();
  const query = await searchParams;
  const code = first(query.code);
  const error = first(query.error);
  const redirectUri = DEMO.app.redirectUris[0];
  const exchange = `curl -s -u ${DEMO.sandbox.clientId}:${DEMO.sandbox.clientSecret} -d grant_type=authorization_code -d code=${code ?? "CODE"} --data-urlencode redirect_uri=${redirectUri} http://localhost:3000/sandbox/oauth/token`;
  return (
    <NarrowPage>
      <Card>
        <p className="text-sm font-semibold uppercase tracking-wide text-blue-700">Wayline Demo (a partner app)</p>
        <h1 className="mt-3 text-2xl font-bold tracking-tight">
          {error ? "The driver did not allow access" : code ? "Authorization code received" : "Nothing received yet"}
        </h1>
        {error ? (
          <p className="mt-3 text-slate-700">
            error=<code>{error}</code>
            {first(query.error_description) ? ` (${first(query.error_description)})` : ""}
          </p>
        ) : null}
        {code ? (
          <>
            <p className="mt-3 text-slate-700">Exchange it within 10 minutes, once:</p>
            <pre className="mt-2 overflow-x-auto rounded-lg bg-slate-900 p-3 text-xs text-slate-100">{exchange}</pre>
          </>
        ) : null}
        {first(query.state) ? (
          <p className="mt-3 text-sm text-slate-600">
            state=<code>{first(query.state)}</code>
          </p>
        ) : null}
      </Card>
    </NarrowPage>
  );
}
