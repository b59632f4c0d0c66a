import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { ConsoleHeader } from "@/components/console/console-header";
import { CopyValue } from "@/components/console/copy-value";
import { curlFor, sample, type JsonSchema } from "@/components/docs/examples";
import { SchemaTable } from "@/components/docs/schema-view";
import { env as config } from "@/server/env";
import { getPartnerSession } from "@/server/console/session";
import { openApiDocument } from "@/server/openapi/document";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "API reference" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };
type OpenApiOperation = { tags: string[]; summary: string; description?: string; operationId: string; parameters: { name: string; in: string; required: boolean; schema: JsonSchema }[]; requestBody?: { content: { "application/json": { schema: JsonSchema } } } };

const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

async function siteOrigin(): Promise<string> {
  const configured = config().PUBLIC_URL;
  if (configured) return new URL(configured).origin;
  const host = (await headers()).get("host");
  return host && HOST.test(host) ? `http://${host}` : "http://localhost:3000";
}

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, "-");
const code = "rounded bg-slate-100 px-1 font-mono text-sm";

// /docs — the API reference, rendered on the server from the same OpenAPI documents served at
// /{v1|sandbox}/api/openapi.json: base URLs, the OAuth flows, and every operation with its
// parameters, body and a copyable curl line. Public.
export default async function DocsPage({ searchParams }: Props) {
  const environment = (await searchParams).env === "production" ? "production" : "sandbox";
  const origin = await siteOrigin();
  const session = await getPartnerSession();
  const document = openApiDocument(environment, origin);
  const base = document.servers[0]!.url;
  const prefix = environment === "sandbox" ? "/sandbox" : "";
  const tokenUrl = `${origin}${prefix}/oauth/token`;
  const operations = Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item as Record<string, OpenApiOperation>).map(([method, op]) => ({ path, method: method.toUpperCase(), op })));
  const tags = document.tags.map((t) => t.name).filter((name) => operations.some((o) => o.op.tags.includes(name)));

  const flows = [
    { id: "client-credentials", title: "Client credentials (the app itself)", text: "A token for your app: create accounts, list the accounts and vehicles it may see, system subscriptions.", curl: `curl -s -u "$CLIENT_ID:$CLIENT_SECRET" -d grant_type=client_credentials ${tokenUrl}` },
    { id: "account-code", title: "Account creation code exchange", text: "POST /account/ with a client-credentials token answers accessToken.code; exchange it for the driver's tokens without any user interaction (redirect_uri may be omitted).", curl: `curl -s -u "$CLIENT_ID:$CLIENT_SECRET" -d grant_type=authorization_code -d code="$CODE" ${tokenUrl}` },
    {
      id: "authorization-code",
      title: "Authorization code with PKCE (an existing driver)",
      text: `Send the driver's browser to ${origin}${prefix}/OAuth/authorize?client_id=…&redirect_uri=…&response_type=code&state=…&code_challenge=…&code_challenge_method=S256 and exchange the code your redirect URI receives (public apps must use PKCE).`,
      curl: `curl -s -u "$CLIENT_ID:$CLIENT_SECRET" -d grant_type=authorization_code -d code="$CODE" --data-urlencode redirect_uri="$REDIRECT_URI" -d code_verifier="$VERIFIER" ${tokenUrl}`,
    },
    { id: "refresh", title: "Refresh", text: "Access tokens last 86400 s. Refresh tokens rotate on every use; a used one presented again revokes its family.", curl: `curl -s -u "$CLIENT_ID:$CLIENT_SECRET" -d grant_type=refresh_token -d refresh_token="$REFRESH_TOKEN" ${tokenUrl}` },
    { id: "revoke", title: "Revoke (RFC 7009)", text: "Give an access or refresh token back; its whole family stops working.", curl: `curl -s -u "$CLIENT_ID:$CLIENT_SECRET" -d token="$REFRESH_TOKEN" ${origin}${prefix}/oauth/revoke` },
  ];

  return (
    <>
      <ConsoleHeader session={session} />
      <div className="mx-auto flex w-full max-w-5xl flex-col gap-8 px-4 py-8 lg:flex-row">
        <nav aria-label="Reference contents" className="lg:sticky lg:top-4 lg:max-h-[90vh] lg:w-56 lg:shrink-0 lg:overflow-y-auto">
          <ul className="flex flex-col gap-1 text-sm">
            <li><a className="inline-block min-h-11 content-center text-blue-700 underline" href="#environments">Environments</a></li>
            <li><a className="inline-block min-h-11 content-center text-blue-700 underline" href="#authentication">Authentication</a></li>
            <li><a className="inline-block min-h-11 content-center text-blue-700 underline" href="#errors">Errors</a></li>
            {tags.map((t) => (
              <li key={t}><a className="inline-block min-h-11 content-center text-blue-700 underline" href={`#${slug(t)}`}>{t}</a></li>
            ))}
          </ul>
        </nav>
        <main id="main" className="flex min-w-0 flex-1 flex-col gap-8">
          <header className="flex flex-col gap-3">
            <h1 className="text-3xl font-bold tracking-tight">Wayline API reference</h1>
            <p className="text-slate-700">{document.info.description}</p>
            <nav aria-label="Environment" className="flex flex-wrap gap-2 text-sm">
              {(["sandbox", "production"] as const).map((e) => (
                <Link key={e} href={`/docs?env=${e}`} aria-current={e === environment ? "true" : undefined} className={`min-h-11 content-center rounded-full px-3 font-semibold ${e === environment ? "bg-slate-900 text-white" : "bg-white text-slate-800 ring-1 ring-slate-300"}`}>
                  {e === "sandbox" ? "Sandbox" : "Production"} examples
                </Link>
              ))}
              <a className="min-h-11 content-center px-2 font-semibold text-blue-700 underline" href={`${prefix || "/v1"}/api/openapi.json`}>
                OpenAPI document (JSON)
              </a>
            </nav>
          </header>

          <section aria-labelledby="environments" className="flex flex-col gap-3">
            <h2 id="environments" className="text-2xl font-semibold">Environments</h2>
            <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Base URLs per environment">
              <table className="w-full min-w-[30rem] text-left text-sm">
                <caption className="sr-only">Base URLs per environment</caption>
                <thead>
                  <tr className="border-b border-slate-200"><th scope="col" className="py-1 pr-3"> </th><th scope="col" className="py-1 pr-3">Production</th><th scope="col" className="py-1">Sandbox</th></tr>
                </thead>
                <tbody className="font-mono">
                  <tr className="border-b border-slate-100"><th scope="row" className="py-1 pr-3 font-sans">REST API</th><td className="break-all py-1 pr-3">{origin}/v1/api</td><td className="break-all py-1">{origin}/sandbox/api</td></tr>
                  <tr className="border-b border-slate-100"><th scope="row" className="py-1 pr-3 font-sans">Authorization page</th><td className="break-all py-1 pr-3">{origin}/OAuth/authorize</td><td className="break-all py-1">{origin}/sandbox/OAuth/authorize</td></tr>
                  <tr className="border-b border-slate-100"><th scope="row" className="py-1 pr-3 font-sans">Token</th><td className="break-all py-1 pr-3">{origin}/oauth/token</td><td className="break-all py-1">{origin}/sandbox/oauth/token</td></tr>
                  <tr className="border-b border-slate-100"><th scope="row" className="py-1 pr-3 font-sans">Revocation</th><td className="break-all py-1 pr-3">{origin}/oauth/revoke</td><td className="break-all py-1">{origin}/sandbox/oauth/revoke</td></tr>
                </tbody>
              </table>
            </div>
            <p className="text-sm text-slate-700">Every account, vehicle, credential, token, subscription and notification belongs to one environment; a token used on the other environment gets 401. Only the sandbox accepts data sets from any app. Get credentials in the <Link className="text-blue-700 underline" href="/console">partner console</Link>.</p>
          </section>

          <section aria-labelledby="authentication" className="flex flex-col gap-4">
            <h2 id="authentication" className="text-2xl font-semibold">Authentication</h2>
            <p className="text-sm text-slate-700">The token endpoint takes form-encoded requests; clients authenticate with HTTP Basic or <code className={code}>client_id</code>/<code className={code}>client_secret</code> form fields. API calls send <code className={code}>Authorization: Bearer $TOKEN</code>.</p>
            {flows.map((f) => (
              <article key={f.id} aria-labelledby={`flow-${f.id}`} className="rounded-xl border border-slate-200 bg-white p-4">
                <h3 id={`flow-${f.id}`} className="font-semibold">{f.title}</h3>
                <p className="mt-1 break-words text-sm text-slate-700">{f.text}</p>
                <dl className="mt-2"><CopyValue label="curl" value={f.curl} /></dl>
              </article>
            ))}
          </section>

          <section aria-labelledby="errors" className="flex flex-col gap-2">
            <h2 id="errors" className="text-2xl font-semibold">Errors</h2>
            <p className="text-sm text-slate-700">Every error has the body <code className={code}>{`{"error":{"httpStatus","errorCode","detail","errorDisplay","fieldErrors":[{"fieldName","errorCode","errorDisplay"}]}}`}</code>: 400 VALIDATION, 401 UNAUTHORIZED, 403 FORBIDDEN, 404 NOT_FOUND (also for ids you may not see), 405, 409 CANNOTPERSIST, 413, 415, 429 RATE_LIMITED, 500 INTERNAL. The OAuth endpoints answer RFC 6749 errors instead.</p>
          </section>

          {tags.map((tag) => (
            <section key={tag} aria-labelledby={slug(tag)} className="flex flex-col gap-4">
              <h2 id={slug(tag)} className="text-2xl font-semibold">{tag}</h2>
              {operations
                .filter((o) => o.op.tags.includes(tag))
                .map(({ path, method, op }) => {
                  const body = op.requestBody?.content["application/json"].schema;
                  const params = op.parameters;
                  return (
                    <article key={`${method} ${path}`} id={op.operationId} aria-labelledby={`${op.operationId}-title`} className="rounded-xl border border-slate-200 bg-white p-4">
                      <h3 id={`${op.operationId}-title`} className="flex flex-wrap items-baseline gap-2">
                        <span className={`rounded px-2 py-0.5 font-mono text-xs font-bold ${method === "GET" ? "bg-blue-100 text-blue-900" : method === "DELETE" ? "bg-red-100 text-red-900" : "bg-emerald-100 text-emerald-900"}`}>{method}</span>
                        <span className="break-all font-mono text-sm">{path}</span>
                      </h3>
                      <p className="mt-1 font-semibold text-slate-900">{op.summary}</p>
                      {op.description ? <p className="mt-1 text-sm text-slate-700">{op.description}</p> : null}
                      {params.length > 0 ? (
                        <div className="mt-3">
                          <h4 className="text-sm font-semibold">Parameters</h4>
                          <SchemaTable caption={`Parameters of ${method} ${path}`} schema={{ properties: Object.fromEntries(params.map((p) => [p.name, { ...p.schema, description: `${p.in}${p.schema.description ? `: ${p.schema.description}` : ""}` }])), required: params.filter((p) => p.required).map((p) => p.name) }} />
                        </div>
                      ) : null}
                      {body ? (
                        <div className="mt-3">
                          <h4 className="text-sm font-semibold">Request body</h4>
                          <SchemaTable caption={`Body of ${method} ${path}`} schema={body} />
                        </div>
                      ) : null}
                      <dl className="mt-3"><CopyValue label="curl" value={curlFor({ method, base, path, body: body ? sample(body) : undefined })} /></dl>
                    </article>
                  );
                })}
            </section>
          ))}
        </main>
      </div>
    </>
  );
}
