import { consoleActions } from "@/server/console/actions";
import { withConsoleAction } from "@/server/http/with-console-action";

// POST /console/actions/{name} — every state-changing console form (server/console/actions.ts).
export const POST = withConsoleAction(consoleActions);
