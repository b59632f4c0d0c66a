import { describeWait, type SignInProblem } from "@/common/auth/sign-in-errors";

// What the driver reads when a sign-in or registration is refused (field problems are shown by
// their fields instead).
export function problemMessage(problem: SignInProblem, environmentName: string): string {
  switch (problem.kind) {
    case "invalid_credentials":
      return (
        `That username and password do not match a ${environmentName} account.` +
        (problem.waitSeconds > 0
          ? ` Too many failed attempts: wait ${describeWait(problem.waitSeconds)} before trying again.`
          : "")
      );
    case "throttled":
      return `Too many failed sign-ins. Try again in ${describeWait(problem.retryAfterSeconds)}.`;
    case "registrations_limited":
      return `Too many accounts were created from this network recently. Try again in ${describeWait(problem.retryAfterSeconds)}.`;
    case "expired":
      return "This form had expired. Please try again.";
    case "fields":
      return "Some fields need attention.";
  }
}
