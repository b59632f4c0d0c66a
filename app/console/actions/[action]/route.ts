import { runConsoleAction } from "@/server/console/actions";

type Context = { params: Promise<{ action: string }> };

// POST /console/actions/{name} — every state-changing console form (server/console/actions.ts).
export async function POST(request: Request, context: Context): Promise<Response> {
  return runConsoleAction((await context.params).action, request);
}
