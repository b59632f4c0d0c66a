import type { ReactNode } from "react";

export function Card({ children, className = "", id }: { children: ReactNode; className?: string; id?: string }) {
  return (
    <section id={id} className={`rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 ${className}`}>
      {children}
    </section>
  );
}

/** The narrow centred column of the sign-in, consent and error pages. */
export function NarrowPage({ children }: { children: ReactNode }) {
  return <main className="mx-auto flex w-full max-w-md flex-col gap-6 px-4 py-10 sm:py-16">{children}</main>;
}

export function EnvironmentBadge({ environment }: { environment: "production" | "sandbox" }) {
  return environment === "sandbox" ? (
    <span className="inline-flex items-center rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-900">
      Sandbox
    </span>
  ) : (
    <span className="inline-flex items-center rounded-full bg-emerald-100 px-2.5 py-0.5 text-xs font-semibold text-emerald-900">
      Production
    </span>
  );
}
