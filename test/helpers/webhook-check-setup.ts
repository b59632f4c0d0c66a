import { afterEach } from "vitest";
import { takeWebhookProblems } from "./webhook-problems";

// A setup file of the integration projects (vitest.config.ts): a test during which the HTTPS receiver got a
// webhook body its event-catalog schema refuses fails here (test/helpers/webhook-schemas.ts).
afterEach(() => {
  const problems = takeWebhookProblems();
  if (problems.length > 0) throw new Error(`Webhook bodies outside the event catalog:\n${problems.join("\n")}`);
});
