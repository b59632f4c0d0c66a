import Link from "next/link";
import type { PartnerSession } from "@/server/console/session";
import { PartnerSignOutButton } from "./partner-auth-form";

const link = "min-h-11 content-center font-semibold text-blue-700 underline-offset-2 hover:underline";

// The console's top bar: a skip link, the partner signed in, the apps, the API reference.
export function ConsoleHeader({ session }: { session: PartnerSession | null }) {
  return (
    <header className="border-b border-slate-200 bg-white">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2">
        Skip to content
      </a>
      <nav aria-label="Console" className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-2 px-4 py-2">
        <Link href="/console" className="min-h-11 content-center text-base font-bold tracking-tight text-slate-900">
          Wayline <span className="font-normal text-slate-600">partner console</span>
        </Link>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
          <Link href="/docs" className={link}>
            API reference
          </Link>
          {session ? (
            <>
              <Link href="/console/apps" className={link}>
                Apps
              </Link>
              <span className="text-slate-700">{session.email}</span>
              <PartnerSignOutButton />
            </>
          ) : (
            <Link href="/console/sign-in" className={link}>
              Sign in
            </Link>
          )}
        </div>
      </nav>
    </header>
  );
}

export function ConsoleMain({ children }: { children: React.ReactNode }) {
  return (
    <main id="main" className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-8">
      {children}
    </main>
  );
}
