"use client";

import Link from "next/link";
import { SiteHeader } from "@/components/site/site-header";

// A driver page that failed says so, with a way on: never a blank page. The page's own header
// went down with it, so this one brings the site's navigation back.
export default function DriverError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <>
      <SiteHeader session="unknown" />
      <main id="main" className="mx-auto flex max-w-xl flex-col gap-4 px-4 py-16">
        <h1 className="text-2xl font-bold tracking-tight">Something went wrong</h1>
        <p role="alert" className="text-slate-700">
          This page could not be shown. It has been logged{error.digest ? ` (reference ${error.digest})` : ""}. Try
          again, or go back to your vehicles.
        </p>
        <div className="flex flex-wrap gap-3">
          <button
            type="button"
            onClick={reset}
            className="min-h-11 rounded-lg bg-blue-700 px-4 text-sm font-semibold text-white hover:bg-blue-800"
          >
            Try again
          </button>
          <Link
            href="/map"
            className="inline-flex min-h-11 items-center rounded-lg border border-slate-300 bg-white px-4 text-sm font-semibold hover:bg-slate-50"
          >
            Your vehicles
          </Link>
        </div>
      </main>
    </>
  );
}
