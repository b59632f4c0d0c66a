"use client";

import { signIn } from "next-auth/react";
import { useState, type FormEvent } from "react";
import { readSignInProblem } from "@/common/auth/sign-in-errors";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { problemMessage } from "./problem-message";
import { rememberEnvironment } from "@/common/auth/sign-in-environment";

type Props = { environment: "production" | "sandbox"; continueTo: string; loginHint?: string };

// Signs in through next-auth's "password" credentials provider (with its CSRF token), then
// follows `continueTo` with a full navigation so the server sees the new session cookie. The form
// says method="post" (so do registration's and the console's): submitted before the page's script
// runs, the browser posts it to this page, and the password never lands in an address, the
// history, a log or a Referer, as a default GET would put it.
export function SignInForm({ environment, continueTo, loginHint }: Props) {
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setMessage(null);
    const result = await signIn("password", {
      redirect: false,
      environment,
      username: String(form.get("username") ?? ""),
      password: String(form.get("password") ?? ""),
      callbackUrl: continueTo,
    }).catch(() => null);
    if (result && !result.error && result.ok && !result.url?.includes("csrf=true")) {
      rememberEnvironment(environment);
      window.location.assign(continueTo);
      return;
    }
    const problem = !result
      ? null
      : result.url?.includes("csrf=true")
        ? ({ kind: "expired" } as const)
        : readSignInProblem(result.error);
    setMessage(
      problem ? problemMessage(problem, environment) : "Signing in failed. Check your connection and try again.",
    );
    setPending(false);
  }

  return (
    <form method="post" onSubmit={submit} className="flex flex-col gap-4" noValidate aria-label="Sign in">
      <Field
        name="username"
        label="Username"
        autoComplete="username"
        required
        defaultValue={loginHint}
        autoCapitalize="none"
        spellCheck={false}
      />
      <Field name="password" label="Password" type="password" autoComplete="current-password" required />
      {message ? (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
          {message}
        </p>
      ) : null}
      <Button type="submit" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
