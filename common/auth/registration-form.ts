import { z } from "zod";
import type { Environment } from "@/db/schema/environment";
import { createAccountBody } from "@/common/accounts/schemas";
import type { FieldProblem } from "./sign-in-errors";

// What the registration form asks (docs/oauth.md#sessions), checked by the same schema in the browser
// (inline, as the driver types) and on the server. No server-only imports: the form imports it.

const ENVIRONMENTS = ["production", "sandbox"] as const satisfies readonly Environment[];

// The account's preferred way of contact must be one it can be reached by.
function contactProblems(account: { preferredContact?: unknown; email?: unknown; phone?: unknown }): FieldProblem[] {
  const contact =
    typeof account.preferredContact === "string" ? account.preferredContact.trim().toUpperCase() : undefined;
  const given = (value: unknown) => typeof value === "string" && value.trim() !== "";
  if (contact === "EMAIL" && !given(account.email))
    return [{ fieldName: "email", message: "Needed, since you prefer to be contacted by e-mail." }];
  if ((contact === "PHONE" || contact === "SMS") && !given(account.phone))
    return [{ fieldName: "phone", message: "Needed, since you prefer to be contacted by phone." }];
  return [];
}

export const registrationInput = createAccountBody
  .extend({ environment: z.enum(ENVIRONMENTS) })
  .superRefine((account, ctx) => {
    for (const problem of contactProblems(account))
      ctx.addIssue({ code: "custom", path: [problem.fieldName], message: problem.message });
  });

/** Every problem at once, per field (zod skips the contact rule while other fields fail, so it is added here). */
export function registrationProblems(raw: unknown): FieldProblem[] {
  const parsed = registrationInput.safeParse(raw, { reportInput: true });
  if (parsed.success) return [];
  const problems: FieldProblem[] = parsed.error.issues.map((issue) => {
    const missing = issue.code === "invalid_type" && (issue as { input?: unknown }).input === undefined;
    return { fieldName: issue.path.map(String).join(".") || "form", message: missing ? "Required." : issue.message };
  });
  const reported = new Set(problems.map((p) => p.fieldName));
  const contact = typeof raw === "object" && raw !== null ? contactProblems(raw) : [];
  return [...problems, ...contact.filter((p) => !reported.has(p.fieldName))];
}
