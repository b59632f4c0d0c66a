#!/usr/bin/env node
import { createWayline } from "../client.js";
import { OAuthError, WaylineError } from "../errors.js";
import { clientCredentials } from "../tokens.js";
import { HelpRequested, readSettings, UsageError, USAGE } from "./config.js";
import { pollingFeed, streamingFeed } from "./event-source.js";
import { listen } from "./listen.js";
import { stateStore } from "./state.js";
import { trigger } from "./trigger.js";

// The `wayline` command (docs/sdk.md#the-wayline-command). Every failure is one line on stderr and an
// exit code: 2 for a mistake in the command line, 1 for one at run time. Never a stack trace.

const print = (line: string) => process.stdout.write(`${line}\n`);
const fail = (line: string, code: number): never => {
  process.stderr.write(`wayline: ${line}\n`);
  process.exit(code);
};

function explain(e: unknown, url: string): string {
  if (e instanceof OAuthError)
    return e.error === "invalid_client"
      ? "the sandbox client id or secret was refused (invalid_client): check WAYLINE_CLIENT_ID and WAYLINE_CLIENT_SECRET."
      : `the token endpoint refused: ${e.message}`;
  if (e instanceof WaylineError) return `the API answered ${e.message}`;
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  if (e instanceof TypeError && cause)
    return `cannot reach ${url} (${cause.code ?? cause.message}): check WAYLINE_URL.`;
  return (e as Error).message ?? String(e);
}

let target = "the service";

async function main(): Promise<void> {
  const settings = readSettings(process.argv.slice(2), process.env);
  target = settings.url;
  const tokens = clientCredentials({
    url: settings.url,
    environment: "sandbox",
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
  });
  // Credentials are checked before anything else, so a wrong one is the first and only line.
  await tokens.token();
  const api = createWayline({ url: settings.url, environment: "sandbox", token: tokens });

  if (settings.command === "trigger") {
    await trigger(api, settings.args[0], settings.vehicle, print);
    return;
  }
  if (settings.command !== "listen") throw new UsageError(`Unknown command "${settings.command}".\n${USAGE}`);
  if (!settings.forwardTo) throw new UsageError("Missing --forward-to <url> (where to send the events).");
  if (!/^https?:\/\//.test(settings.forwardTo)) throw new UsageError("--forward-to must be an http(s) URL.");
  if (!settings.signingSecret)
    throw new UsageError(
      "Missing --signing-secret (or WAYLINE_SIGNING_SECRET): the app's webhook signing secret, whsec_…, as `npm run app:create` printed it.",
    );
  const stop = new AbortController();
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stop.abort());
  await listen({
    api,
    source: settings.poll
      ? pollingFeed(api, { intervalMs: settings.intervalMs })
      : streamingFeed(api, { notice: print }),
    state: stateStore(settings.stateFile, `${settings.url} ${settings.clientId}`),
    forwardTo: settings.forwardTo,
    signingSecret: settings.signingSecret,
    fromStart: settings.fromStart,
    print,
    signal: stop.signal,
  });
  print("Stopped; the next run resumes after the last event forwarded.");
}

try {
  await main();
} catch (e) {
  if (e instanceof HelpRequested) print(USAGE);
  else if (e instanceof UsageError) fail(e.message, 2);
  else fail(explain(e, target), 1);
}
