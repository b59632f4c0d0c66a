// Webhook bodies the HTTPS receiver found outside the event catalog (webhook-schemas.ts), kept
// for the running test to fail on (webhook-check-setup.ts). A module of its own: the setup file
// loads it in every integration file, and most of them never start a receiver.

const pending: string[] = [];

/** Records a problem for the running test to fail on. */
export function reportWebhookProblem(problem: string): void {
  pending.push(problem);
}

/** The problems recorded since the last call. */
export function takeWebhookProblems(): string[] {
  return pending.splice(0);
}
