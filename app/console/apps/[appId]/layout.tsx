import type { ReactNode } from "react";
import { AppTabs } from "@/components/console/app-tabs";
import { ConsoleHeader, ConsoleMain } from "@/components/console/console-header";
import { consoleAppFrame, pageId } from "@/server/surfaces/console/pages";

type Props = { children: ReactNode; params: Promise<{ appId: string }> };

// The frame of every page of one app: the console's header, the app's name and its tabs (the
// active one read from the address by the tabs themselves). Each page still checks the partner and
// the app on its own: Next renders a layout and its page side by side, and a layout is kept, not
// rendered again, when the partner moves between tabs. Both share one load (consoleAppFrame).
export default async function AppLayout({ children, params }: Props) {
  const appId = pageId((await params).appId);
  const frame = await consoleAppFrame(appId);
  // No partner signed in: the page sends them to the sign-in page, coming back to its whole address.
  if (!frame) return children;
  return (
    <>
      <ConsoleHeader session={frame.session} />
      <ConsoleMain>
        <AppTabs appId={appId} appName={frame.overview.app.name} hasProduction={frame.overview.production !== null} />
        {children}
      </ConsoleMain>
    </>
  );
}
