import type { Metadata } from "next";
import Link from "next/link";
import { SimulatorPanel } from "@/components/console/simulator/simulator-panel";
import { EmptyState, Notice } from "@/components/console/states";
import { tileConfig } from "@/server/surfaces/driver/map-config";
import { consoleAppPage, ownedOr404, pageId } from "@/server/surfaces/console/pages";
import { simulatorOverview } from "@/server/surfaces/console/simulator";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sandbox simulator" };

type Props = { params: Promise<{ appId: string }> };

// /console/apps/{id}/simulator — drive one of the app's sandbox vehicles: clicked start and end,
// a saved route or a template; watch the run and stop it (server/surfaces/console/simulator.ts).
export default async function SimulatorPage({ params }: Props) {
  const appId = pageId((await params).appId);
  const { session, csrfToken } = await consoleAppPage(appId, `/console/apps/${appId}/simulator`);
  const data = await ownedOr404(() => simulatorOverview(session.partnerUserId, appId));

  return (
    <>
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-bold tracking-tight">Sandbox simulator</h1>
        <p className="text-sm text-slate-700">
          Drives a sandbox vehicle through the same ingest path a device uses: its trips, data and notifications are the
          real thing. Only sandbox vehicles can be simulated; production vehicles are driven by their devices.
        </p>
      </div>
      {"refused" in data ? (
        <Notice tone="warn">{data.refused}</Notice>
      ) : data.vehicles.length === 0 ? (
        <EmptyState title="No sandbox vehicles yet">
          Make a test account and give it a vehicle on{" "}
          <Link className="text-blue-700 underline" href={`/console/apps/${appId}/accounts?env=sandbox`}>
            Connected accounts
          </Link>
          , then come back to drive it.
        </EmptyState>
      ) : (
        <SimulatorPanel appId={appId} csrfToken={csrfToken} tiles={tileConfig()} {...data} />
      )}
    </>
  );
}
