import Link from "next/link";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { EnvironmentBadge } from "@/components/ui/card";
import type { DriverSession } from "@/server/auth/session";

export type Section = "map" | "account" | "connected-apps";

const sections: { id: Section; href: string; label: string }[] = [
  { id: "map", href: "/map", label: "Map" },
  { id: "account", href: "/account", label: "Account" },
  { id: "connected-apps", href: "/connected-apps", label: "Connected apps" },
];

// The driver site's top bar: who is signed in (and to which environment), and where they can go.
export function SiteHeader({ session, current }: { session: DriverSession | null; current?: Section }) {
  return (
    <header className="border-b border-slate-200 bg-white">
      <nav aria-label="Site" className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 gap-y-1 px-4 py-2">
        <Link href={session ? "/map" : "/"} className="min-h-11 content-center text-base font-bold tracking-tight text-slate-900">
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
            <ul className="flex flex-wrap items-center gap-x-3">
              {sections.map((s) => (
                <li key={s.id}>
                  <Link
                    href={s.href}
                    aria-current={current === s.id ? "page" : undefined}
                    className={`inline-block min-h-11 content-center font-semibold underline-offset-4 hover:underline ${current === s.id ? "text-slate-900 underline decoration-2" : "text-blue-700"}`}
                  >
                    {s.label}
                  </Link>
                </li>
              ))}
            </ul>
            <span className="text-slate-700">
              {session.name} <EnvironmentBadge environment={session.environment} />
            </span>
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
