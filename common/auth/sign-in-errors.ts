import { z } from "zod";

// Why a sign-in or registration was refused. next-auth hands the message of an error thrown by a
// credentials provider to the browser as the `error` of its answer, so the message is this JSON
// and the form reads it back to say exactly what went wrong, next to the right field. No server
// imports here: the sign-in forms (client components) import this file.

const fieldProblem = z.object({ fieldName: z.string(), message: z.string() });

const signInProblem = z.discriminatedUnion("kind", [
  /** Wrong username or password; `waitSeconds` > 0 when this failure started a wait. */
  z.object({ kind: z.literal("invalid_credentials"), waitSeconds: z.number().int().min(0) }),
  /** Too many recent failures for this account or address: nothing was checked. */
  z.object({ kind: z.literal("throttled"), retryAfterSeconds: z.number().int().min(1) }),
  /** Too many registrations from this address lately: nothing was created. */
  z.object({ kind: z.literal("registrations_limited"), retryAfterSeconds: z.number().int().min(1) }),
  /** Registration input that cannot be accepted, per field. */
  z.object({ kind: z.literal("fields"), fieldErrors: z.array(fieldProblem) }),
  /** The form's CSRF token was missing or stale (next-auth refused the post). */
  z.object({ kind: z.literal("expired") }),
]);

export type SignInProblem = z.infer<typeof signInProblem>;
export type FieldProblem = z.infer<typeof fieldProblem>;

export class SignInRefused extends Error {
  constructor(readonly problem: SignInProblem) {
    super(JSON.stringify(problem));
  }
}

/** Reads the `error` of next-auth's sign-in answer; anything unrecognised counts as bad credentials. */
export function readSignInProblem(error: string | null | undefined): SignInProblem {
  if (!error) return { kind: "invalid_credentials", waitSeconds: 0 };
  try {
    const parsed = signInProblem.safeParse(JSON.parse(error));
    if (parsed.success) return parsed.data;
  } catch {
    // next-auth's own codes (CredentialsSignin, …) are not JSON.
  }
  return { kind: "invalid_credentials", waitSeconds: 0 };
}

export function describeWait(seconds: number): string {
  if (seconds < 90) return `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minutes`;
}
