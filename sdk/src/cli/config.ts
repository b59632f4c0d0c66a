import { parseArgs } from "node:util";

// The command's settings (docs/sdk.md#the-wayline-command): flags override the environment variables.

export const USAGE = `Usage:
  wayline listen --forward-to <url> [--from-start] [--state-file <path>] [--poll [--interval <seconds>]]
  wayline trigger <TYPE> --vehicle <id>

Settings (flags override the environment):
  --url             WAYLINE_URL             the service, e.g. https://wayline.example
  --client-id       WAYLINE_CLIENT_ID       the app's sandbox client id
  --client-secret   WAYLINE_CLIENT_SECRET   the app's sandbox client secret
  --signing-secret  WAYLINE_SIGNING_SECRET  the app's webhook signing secret (whsec_…), for listen
  --state-file      WAYLINE_STATE_FILE      where listen keeps its place (default .wayline/listen.json)
  --poll                                    listen by asking the feed every --interval seconds (default 1)
                                            instead of holding its event stream open`;

/** A mistake of the caller's: one clear line, exit code 2 (1 is for failures at run time). */
export class UsageError extends Error {}

/** --help: the usage on stdout, exit code 0. */
export class HelpRequested extends Error {}

export type Settings = {
  command: string;
  args: string[];
  url: string;
  clientId: string;
  clientSecret: string;
  signingSecret?: string;
  forwardTo?: string;
  vehicle?: string;
  stateFile: string;
  intervalMs: number;
  /** Poll the feed's pages instead of holding its stream open. */
  poll: boolean;
  fromStart: boolean;
};

export function readSettings(argv: string[], env: NodeJS.ProcessEnv): Settings {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        url: { type: "string" },
        "client-id": { type: "string" },
        "client-secret": { type: "string" },
        "signing-secret": { type: "string" },
        "forward-to": { type: "string" },
        vehicle: { type: "string" },
        "state-file": { type: "string" },
        interval: { type: "string" },
        poll: { type: "boolean" },
        "from-start": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { values, positionals } = parsed;
  const [command = "", ...args] = positionals;
  if (values.help || command === "help") throw new HelpRequested(USAGE);
  if (command === "") throw new UsageError(USAGE);
  const need = (value: string | undefined, flag: string, variable: string) => {
    if (!value) throw new UsageError(`Missing ${flag} (or ${variable}).`);
    return value;
  };
  const url = need(values.url ?? env.WAYLINE_URL, "--url", "WAYLINE_URL").replace(/\/$/, "");
  if (!/^https?:\/\/[^/]/.test(url)) throw new UsageError(`--url must be an http(s) URL, not "${url}".`);
  const interval = Number(values.interval ?? "1");
  if (!(interval > 0 && interval <= 60)) throw new UsageError("--interval is seconds between 0 and 60.");
  return {
    command,
    args,
    url,
    clientId: need(values["client-id"] ?? env.WAYLINE_CLIENT_ID, "--client-id", "WAYLINE_CLIENT_ID"),
    clientSecret: need(
      values["client-secret"] ?? env.WAYLINE_CLIENT_SECRET,
      "--client-secret",
      "WAYLINE_CLIENT_SECRET",
    ),
    signingSecret: values["signing-secret"] ?? env.WAYLINE_SIGNING_SECRET,
    forwardTo: values["forward-to"],
    vehicle: values.vehicle,
    stateFile: values["state-file"] ?? env.WAYLINE_STATE_FILE ?? ".wayline/listen.json",
    intervalMs: interval * 1000,
    poll: values.poll ?? false,
    fromStart: values["from-start"] ?? false,
  };
}
