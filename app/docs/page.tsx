import type { Metadata } from "next";
import Link from "next/link";
import { ConsoleHeader } from "@/components/console/console-header";
import { CopyValue } from "@/components/console/copy-value";
import { ApiReference } from "@/components/docs/api-reference";
import { getPartnerSession } from "@/server/surfaces/console/session";
import { guideList } from "@/server/surfaces/docs/guides";
import { siteOrigin } from "@/server/surfaces/docs/site-origin";
import { REFERENCE_BUNDLE_PATH } from "@/server/openapi/reference-bundle";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "API reference" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

// /docs — the API reference: the OpenAPI document of /{sandbox|v1}/api/openapi.json rendered by
// Scalar's bundle from our own origin (search, schemas, examples, "try it" against the sandbox),
// with the guides and the first curl line above it. Public.
export default async function DocsPage({ searchParams }: Props) {
  const environment = (await searchParams).env === "production" ? "production" : "sandbox";
  const origin = await siteOrigin();
  const session = await getPartnerSession();
  const prefix = environment === "sandbox" ? "/sandbox" : "";
  const documentPath = `${prefix || "/v1"}/api/openapi.json`;
  const tokenCurl = `curl -s -u "$CLIENT_ID:$CLIENT_SECRET" -d grant_type=client_credentials ${origin}${prefix}/oauth/token`;

  return (
    <>
      <ConsoleHeader session={session} />
      {/* Not <main>: the renderer brings its own main landmark. */}
      <div id="main" className="flex flex-col">
        <section aria-labelledby="docs-title" className="border-b border-slate-200 bg-white">
          <div className="mx-auto flex max-w-5xl flex-col gap-3 px-4 py-6">
            <h1 id="docs-title" className="text-3xl font-bold tracking-tight">
              Wayline API reference
            </h1>
            <nav aria-label="Guides" className="flex flex-wrap gap-x-4 text-sm">
              {guideList().map((g) => (
                <Link
                  key={g.slug}
                  href={`/docs/guides/${g.slug}`}
                  className="inline-block min-h-11 content-center font-semibold text-blue-700 underline"
                >
                  {g.title}
                </Link>
              ))}
            </nav>
            <nav aria-label="Environment" className="flex flex-wrap gap-2 text-sm">
              {(["sandbox", "production"] as const).map((e) => (
                <Link
                  key={e}
                  href={`/docs?env=${e}`}
                  aria-current={e === environment ? "true" : undefined}
                  className={
                    `min-h-11 content-center rounded-full px-3 font-semibold ` +
                    `${e === environment ? "bg-slate-900 text-white" : "bg-white text-slate-800 ring-1 ring-slate-300"}`
                  }
                >
                  {e === "sandbox" ? "Sandbox" : "Production"}
                </Link>
              ))}
              <a className="min-h-11 content-center px-2 font-semibold text-blue-700 underline" href={documentPath}>
                OpenAPI document (JSON)
              </a>
            </nav>
            {/* Break the line between words, and inside the URL only where it alone is wider than the box. */}
            <dl className="max-w-3xl [&_code]:break-normal [&_code]:[overflow-wrap:anywhere]">
              <CopyValue label="curl" value={tokenCurl} />
            </dl>
            <p className="text-sm text-slate-700">
              Get a token with your app&apos;s credentials (from the{" "}
              <Link className="text-blue-700 underline" href="/console">
                partner console
              </Link>
              ), then use it in the reference&apos;s Authentication box to try any operation against the{" "}
              {environment === "sandbox" ? "sandbox" : "production API"}.
            </p>
          </div>
        </section>
        <ApiReference bundleSrc={REFERENCE_BUNDLE_PATH} documentUrl={documentPath} />
      </div>
    </>
  );
}
