import Link from "next/link";

export default function HomePage() {
  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-8 px-6 py-16">
      <header className="flex flex-col gap-3">
        <p className="text-sm font-semibold uppercase tracking-wide text-blue-700">Wayline</p>
        <h1 className="text-4xl font-bold tracking-tight">Your vehicles, where they are.</h1>
        <p className="text-lg text-slate-700">
          In-vehicle devices report position, odometer and running state. Drivers see their cars on a map; the apps they trust get
          access through OAuth 2.0 and receive vehicle events as webhooks or e-mail.
        </p>
      </header>
      <section aria-labelledby="developers" className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id="developers" className="text-xl font-semibold">
          For developers
        </h2>
        <ul className="mt-3 list-disc space-y-1 pl-5 text-slate-700">
          <li>
            REST API: <code className="rounded bg-slate-100 px-1">/v1/api</code> (production) and{" "}
            <code className="rounded bg-slate-100 px-1">/sandbox/api</code> (sandbox)
          </li>
          <li>
            Token endpoint: <code className="rounded bg-slate-100 px-1">/oauth/token</code> and{" "}
            <code className="rounded bg-slate-100 px-1">/sandbox/oauth/token</code>
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
    </main>
  );
}
