"use client";

import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { pageEnvironment } from "@/common/console/page-environment";

const TABS = [
  { key: "overview", label: "Overview", path: "" },
  { key: "accounts", label: "Connected accounts", path: "/accounts" },
  { key: "subscriptions", label: "Subscriptions", path: "/subscriptions" },
  { key: "notifications", label: "Notifications", path: "/notifications" },
  { key: "health", label: "Delivery health", path: "/health" },
  { key: "access", label: "Data access", path: "/access" },
  { key: "outbox", label: "E-mail outbox", path: "/outbox" },
  { key: "simulator", label: "Simulator", path: "/simulator" },
  { key: "inbox", label: "Sandbox inbox", path: "/inbox" },
] as const;

type AppTab = (typeof TABS)[number]["key"];

// Tabs without an environment switch: the overview covers both, the simulator and the inbox are sandbox tools.
const SANDBOX_ONLY = new Set<AppTab>(["overview", "simulator", "inbox"]);
// The data pages, shown per environment (?env=): on these (not on a page below them, such as one
// notification) the switch appears and the other tabs' links keep the environment.
const PER_ENVIRONMENT = new Set<AppTab>(["accounts", "subscriptions", "notifications", "health", "access"]);

// The app's sections, and (on the data pages) the environment switch. A client component in the
// app's layout, which stays while the partner moves between tabs: the active tab and the
// environment come from the address.
export function AppTabs({ appId, appName, hasProduction }: { appId: number; appName: string; hasProduction: boolean }) {
  const below = usePathname().slice(`/console/apps/${appId}`.length);
  const current = TABS.find((t) => t.path !== "" && (below === t.path || below.startsWith(`${t.path}/`))) ?? TABS[0];
  const envParam = useSearchParams().get("env");
  const environment = PER_ENVIRONMENT.has(current.key) && below === current.path ? pageEnvironment(envParam) : null;
  const q = environment ? `?env=${environment}` : "";
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-slate-600">
        <Link href="/console/apps" className="text-blue-700 underline">
          Apps
        </Link>{" "}
        / <span className="font-semibold text-slate-900">{appName}</span>
      </p>
      <nav aria-label="App sections" className="flex flex-wrap gap-1 border-b border-slate-200">
        {TABS.map((t) => (
          <Link
            key={t.key}
            href={`/console/apps/${appId}${t.path}${SANDBOX_ONLY.has(t.key) ? "" : q}`}
            aria-current={t.key === current.key ? "page" : undefined}
            className={`min-h-11 content-center rounded-t-lg px-3 text-sm font-semibold ${
              t.key === current.key ? "border-b-2 border-blue-700 text-blue-800" : "text-slate-700 hover:text-slate-900"
            }`}
          >
            {t.label}
          </Link>
        ))}
      </nav>
      {environment ? (
        <nav aria-label="Environment" className="flex gap-2 text-sm">
          {(["sandbox", "production"] as const).map((e) => (
            <Link
              key={e}
              href={`/console/apps/${appId}${current.path}?env=${e}`}
              aria-current={e === environment ? "true" : undefined}
              className={`min-h-11 content-center rounded-full px-3 font-semibold ${
                e === environment ? "bg-slate-900 text-white" : "bg-white text-slate-800 ring-1 ring-slate-300"
              }`}
            >
              {e === "sandbox" ? "Sandbox" : "Production"}
              {e === "production" && !hasProduction ? " (not issued)" : ""}
            </Link>
          ))}
        </nav>
      ) : null}
    </div>
  );
}
