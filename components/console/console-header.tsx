import Link from "next/link";
import { CollapsibleNav } from "@/components/ui/collapsible-nav";
import type { PartnerSession } from "@/server/surfaces/console/session";
import { PartnerSignOutButton } from "./partner-auth-form";

const link = "inline-block min-h-11 content-center font-semibold text-blue-700 underline-offset-2 hover:underline";

/** The partner signed in, none, or "unknown" on an error page (a client component, which cannot ask). */
export type ConsoleHeaderSession = PartnerSession | null | "unknown";

// The console's top bar: a skip link, the partner signed in, the apps, the API reference. On a
// phone the links are behind a Menu button.
export function ConsoleHeader({ session }: { session: ConsoleHeaderSession }) {
  return (
    <header className="border-b border-slate-200 bg-white">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <nav
        aria-label="Console"
        className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-2 px-4 py-2"
      >
        <Link href="/console" className="min-h-11 content-center text-base font-bold tracking-tight text-slate-900">
          Wayline <span className="font-normal text-slate-600">partner console</span>
        </Link>
        <CollapsibleNav id="console-menu" className="gap-y-1 text-sm md:flex-wrap md:gap-x-3">
          <Link href="/docs" className={link}>
            API reference
          </Link>
          {session === null ? (
            <Link href="/console/sign-in" className={link}>
              Sign in
            </Link>
          ) : (
            <>
              <Link href="/console/apps" className={link}>
                Apps
              </Link>
              {session === "unknown" ? null : (
                <>
                  <span className="break-all text-slate-700">{session.email}</span>
                  <PartnerSignOutButton />
                </>
              )}
            </>
          )}
        </CollapsibleNav>
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
