"use client";

import "./globals.css";
import { SiteHeader } from "@/components/site/site-header";

// When even the root layout fails: a whole document of its own, still with the site's navigation.
export default function GlobalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        <title>Something went wrong · Wayline</title>
        <SiteHeader session="unknown" />
        <main id="main" className="mx-auto flex max-w-xl flex-col gap-4 px-4 py-16">
          <h1 className="text-2xl font-bold tracking-tight">Something went wrong</h1>
          <p role="alert" className="text-slate-700">
            Wayline could not show this page. It has been logged{error.digest ? ` (reference ${error.digest})` : ""}.
          </p>
          <button
            type="button"
            onClick={reset}
            className="min-h-11 self-start rounded-lg bg-blue-700 px-4 text-sm font-semibold text-white hover:bg-blue-800"
          >
            Try again
          </button>
        </main>
      </body>
    </html>
  );
}
