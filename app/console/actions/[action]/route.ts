import { consoleActions } from "@/server/surfaces/console/actions";
import { withConsoleAction } from "@/server/http/with-console-action";

// POST /console/actions/{name} — every state-changing console form (server/surfaces/console/actions.ts).
export const POST = withConsoleAction(consoleActions);
