import { parseArgs } from "node:util";
import { createApp } from "@/server/apps/service";
import { logger } from "@/server/platform/log";
import { prepareDatabase } from "./lib/database";

// `npm run app:create -- --name "My app" [--owner "My company"] --redirect-uri https://…
// [--redirect-uri …] [--public] [--data-provider] [--json]`: a partner app with sandbox and production credentials, until the
// partner console exists. With --json, stdout carries exactly one JSON object.

const usage = `usage: npm run app:create -- --name NAME [--owner OWNER] [--redirect-uri URI ...] [--public] [--data-provider] [--json]`;

async function main() {
  const { values } = parseArgs({
    options: {
      name: { type: "string" },
      owner: { type: "string" },
      "redirect-uri": { type: "string", multiple: true, default: [] },
      public: { type: "boolean", default: false },
      "data-provider": { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) return void console.log(usage);
  if (!values.name?.trim()) throw new Error(`--name is required\n${usage}`);
  // Keep stdout for the JSON answer alone.
  if (values.json) console.log = (...args: unknown[]) => console.error(...args);

  const database = await prepareDatabase();
  try {
    const app = await createApp({
      name: values.name.trim(),
      ownerName: values.owner?.trim() || null,
      redirectUris: values["redirect-uri"],
      isPublic: values.public,
      dataProvider: values["data-provider"],
    });
    const out = { name: app.name, sandbox: app.sandbox, production: app.production, signingSecret: app.signingSecret };
    if (values.json) process.stdout.write(`${JSON.stringify(out)}\n`);
    else {
      process.stdout.write(
        `Created app "${app.name}" (id ${app.id}). The secrets are shown only now.\n` +
          `  sandbox:    client id ${app.sandbox.clientId}\n              client secret ${app.sandbox.clientSecret}\n` +
          `  production: client id ${app.production.clientId}\n              client secret ${app.production.clientSecret}\n` +
          `  webhook signing secret (both environments): ${app.signingSecret}\n`,
      );
    }
  } finally {
    await database.stop();
  }
}

main().catch((error: unknown) => {
  // The message is for the person at the terminal (a missing option, an invalid value); the
  // stack, for when it is a bug, is logged at LOG_LEVEL=debug.
  console.error(error instanceof Error ? error.message : error);
  logger.debug({ err: error }, "app:create failed");
  process.exit(1);
});
