import type { ReactNode } from "react";

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center">
      <p className="font-semibold text-slate-900">{title}</p>
      {children ? <div className="mt-2 text-sm text-slate-700">{children}</div> : null}
    </div>
  );
}

export function Notice({ tone = "info", children }: { tone?: "info" | "warn"; children: ReactNode }) {
  return (
    <div
      className={
        `rounded-lg px-4 py-3 text-sm ` +
        `${tone === "warn" ? "bg-amber-50 text-amber-950 ring-1 ring-amber-200" : "bg-blue-50 text-blue-950 ring-1 ring-blue-200"}`
      }
    >
      {children}
    </div>
  );
}

export function Section({
  title,
  id,
  children,
  actions,
}: {
  title: string;
  id: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={id} className="text-lg font-semibold">
          {title}
        </h2>
        {actions}
      </div>
      <div className="mt-4">{children}</div>
    </section>
  );
}
