import Link from "next/link";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { CollapsibleNav } from "@/components/ui/collapsible-nav";
import { EnvironmentBadge } from "@/components/ui/card";
import type { DriverSession } from "@/server/surfaces/driver/session";

export type Section = "map" | "alerts" | "account" | "connected-apps" | "data-access";

const sections: { id: Section; href: string; label: string }[] = [
  { id: "map", href: "/map", label: "Map" },
  { id: "alerts", href: "/alerts", label: "Alerts" },
  { id: "account", href: "/account", label: "Account" },
  { id: "connected-apps", href: "/connected-apps", label: "Connected apps" },
  { id: "data-access", href: "/data-access", label: "Data access" },
];

const link = "inline-block min-h-11 content-center font-semibold text-blue-700 underline-offset-2 hover:underline";

/**
 * Who is signed in, or "unknown" on an error page (a client component, which cannot ask): it
 * shows the driver's sections without a name, and they lead to the sign-in page if need be.
 */
export type HeaderSession = DriverSession | null | "unknown";

// The driver site's top bar: who is signed in (and to which environment), and where they can go.
// On a phone the links are behind a Menu button.
export function SiteHeader({ session, current }: { session: HeaderSession; current?: Section }) {
  const signedIn = session !== null;
  return (
    <header className="border-b border-slate-200 bg-white">
      <nav
        aria-label="Site"
        className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 gap-y-1 px-4 py-2"
      >
        <Link
          href={signedIn ? "/map" : "/"}
          className="min-h-11 content-center text-base font-bold tracking-tight text-slate-900"
        >
          Wayline
        </Link>
        <CollapsibleNav id="site-menu" className="md:flex-1 md:flex-wrap md:justify-between md:gap-x-4">
          <div className="flex flex-col items-start text-sm md:flex-row md:flex-wrap md:items-center md:gap-x-3">
            <Link href="/docs" className={link}>
              API reference
            </Link>
            <Link href="/console" className={link}>
              Partner console
            </Link>
          </div>
          {signedIn ? (
            <div className="flex flex-col items-start gap-y-1 text-sm md:flex-row md:flex-wrap md:items-center md:gap-x-3">
              <ul className="flex flex-col items-start md:flex-row md:flex-wrap md:items-center md:gap-x-3">
                {sections.map((s) => (
                  <li key={s.id}>
                    <Link
                      href={s.href}
                      aria-current={current === s.id ? "page" : undefined}
                      className={
                        `inline-block min-h-11 content-center font-semibold underline-offset-4 hover:underline ` +
                        `${current === s.id ? "text-slate-900 underline decoration-2" : "text-blue-700"}`
                      }
                    >
                      {s.label}
                    </Link>
                  </li>
                ))}
              </ul>
              {session === "unknown" ? null : (
                <>
                  <span className="text-slate-700">
                    {session.name} <EnvironmentBadge environment={session.environment} />
                  </span>
                  <SignOutButton then="/login" className="-ml-2 md:ml-0" />
                </>
              )}
            </div>
          ) : (
            <Link href="/login" className={`${link} text-sm`}>
              Sign in
            </Link>
          )}
        </CollapsibleNav>
      </nav>
    </header>
  );
}
