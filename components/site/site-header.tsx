import Link from "next/link";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { EnvironmentBadge } from "@/components/ui/card";
import type { DriverSession } from "@/server/auth/session";

// The driver site's top bar: who is signed in (and to which environment), and where they can go.
export function SiteHeader({ session }: { session: DriverSession | null }) {
  return (
    <header className="border-b border-slate-200 bg-white">
      <nav aria-label="Site" className="mx-auto flex max-w-3xl flex-wrap items-center justify-between gap-2 px-4 py-2">
        <Link href="/" className="min-h-11 content-center text-base font-bold tracking-tight text-slate-900">
          Wayline
        </Link>
        <div className="flex flex-wrap items-center gap-x-3 text-sm">
          <Link href="/docs" className="min-h-11 content-center font-semibold text-blue-700 underline-offset-2 hover:underline">
            API reference
          </Link>
          <Link href="/console" className="min-h-11 content-center font-semibold text-blue-700 underline-offset-2 hover:underline">
            Partner console
          </Link>
        </div>
        {session ? (
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
            <span className="text-slate-700">
              {session.name} <EnvironmentBadge environment={session.environment} />
            </span>
            <Link href="/connected-apps" className="min-h-11 content-center font-semibold text-blue-700 underline-offset-2 hover:underline">
              Connected apps
            </Link>
            <SignOutButton then="/login" />
          </div>
        ) : (
          <Link href="/login" className="min-h-11 content-center text-sm font-semibold text-blue-700 underline-offset-2 hover:underline">
            Sign in
          </Link>
        )}
      </nav>
    </header>
  );
}
