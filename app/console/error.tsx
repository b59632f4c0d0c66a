"use client";

import { ConsoleHeader } from "@/components/console/console-header";

// Anything unexpected while loading a console page: say so, offer a retry, and bring the
// console's navigation back (the page's own header went down with it).
export default function ConsoleError({ reset }: { error: Error; reset: () => void }) {
  return (
    <>
      <ConsoleHeader session="unknown" />
      <main id="main" className="mx-auto w-full max-w-5xl px-4 py-8">
        <div role="alert" className="rounded-xl border border-red-200 bg-red-50 p-6 text-red-900">
          <h1 className="text-lg font-semibold">This page could not be loaded</h1>
          <p className="mt-1 text-sm">Something went wrong on our side. Your data is unchanged.</p>
          <button
            type="button"
            onClick={reset}
            className="mt-3 min-h-11 rounded-lg bg-red-800 px-4 text-sm font-semibold text-white"
          >
            Try again
          </button>
        </div>
      </main>
    </>
  );
}
