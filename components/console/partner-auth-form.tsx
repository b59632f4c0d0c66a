"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { describeWait, readSignInProblem } from "@/common/auth/sign-in-errors";
import { problemMessage } from "@/components/auth/problem-message";

const BASE = "/api/partner-auth";

// Posts to the partner next-auth handler (not the drivers' /api/auth): its CSRF token first,
// then the credentials provider, answered as JSON ({url}) rather than a redirect.
async function partnerSignIn(
  provider: "partner-password" | "partner-registration",
  fields: Record<string, string>,
  callbackUrl: string,
) {
  const csrf = (await (await fetch(`${BASE}/csrf`)).json()) as { csrfToken: string };
  const body = new URLSearchParams({ ...fields, csrfToken: csrf.csrfToken, callbackUrl, json: "true" });
  const response = await fetch(`${BASE}/callback/${provider}`, {
    method: "POST",
    body,
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
  const { url } = (await response.json()) as { url: string };
  const error = new URL(url, window.location.origin).searchParams.get("error");
  return { ok: response.ok && !error && !url.includes("csrf=true"), error, expired: url.includes("csrf=true") };
}

export function PartnerAuthForm({ mode, continueTo }: { mode: "sign-in" | "sign-up"; continueTo: string }) {
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = Object.fromEntries([...new FormData(event.currentTarget)].map(([k, v]) => [k, String(v)]));
    setPending(true);
    setMessage(null);
    setFieldErrors({});
    try {
      const result = await partnerSignIn(
        mode === "sign-in" ? "partner-password" : "partner-registration",
        form,
        continueTo,
      );
      if (result.ok) {
        window.location.assign(continueTo);
        return;
      }
      if (result.expired) {
        setMessage("This form had expired. Please try again.");
      } else {
        const problem = readSignInProblem(result.error);
        if (problem.kind === "fields") {
          setFieldErrors(Object.fromEntries(problem.fieldErrors.map((f) => [f.fieldName, f.message])));
          setMessage("Some fields need attention.");
        } else if (problem.kind === "throttled")
          setMessage(`Too many failed sign-ins. Try again in ${describeWait(problem.retryAfterSeconds)}.`);
        else if (problem.kind === "registrations_limited") setMessage(problemMessage(problem, "partner"));
        else
          setMessage(
            "That e-mail and password do not match a partner account." +
              (problem.kind === "invalid_credentials" && problem.waitSeconds > 0
                ? ` Wait ${describeWait(problem.waitSeconds)} before trying again.`
                : ""),
          );
      }
    } catch {
      setMessage("The console could not be reached. Check your connection and try again.");
    }
    setPending(false);
  }

  return (
    <form
      method="post"
      onSubmit={submit}
      className="flex flex-col gap-4"
      noValidate
      aria-label={mode === "sign-in" ? "Sign in" : "Create a partner account"}
    >
      {mode === "sign-up" ? (
        <Field name="name" label="Your name" autoComplete="name" required error={fieldErrors.name} />
      ) : null}
      <Field
        name="email"
        label="E-mail"
        type="email"
        autoComplete="email"
        required
        error={fieldErrors.email}
        autoCapitalize="none"
        spellCheck={false}
      />
      <Field
        name="password"
        label="Password"
        type="password"
        autoComplete={mode === "sign-in" ? "current-password" : "new-password"}
        required
        error={fieldErrors.password}
        hint={mode === "sign-up" ? "At least 10 characters." : undefined}
      />
      {message ? (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
          {message}
        </p>
      ) : null}
      <Button type="submit" disabled={pending}>
        {pending ? "Working…" : mode === "sign-in" ? "Sign in" : "Create account"}
      </Button>
    </form>
  );
}

export function PartnerSignOutButton() {
  const [pending, setPending] = useState(false);
  return (
    <button
      type="button"
      disabled={pending}
      className="min-h-11 rounded-lg px-2 text-sm font-semibold text-blue-700 underline-offset-2 hover:underline"
      onClick={async () => {
        setPending(true);
        const csrf = (await (await fetch(`${BASE}/csrf`)).json().catch(() => ({ csrfToken: "" }))) as {
          csrfToken: string;
        };
        await fetch(`${BASE}/signout`, {
          method: "POST",
          body: new URLSearchParams({ csrfToken: csrf.csrfToken, callbackUrl: "/console/sign-in", json: "true" }),
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
        }).catch(() => null);
        // A full navigation, so no cached console page outlives the session.
        window.location.assign(new URL("/console/sign-in", window.location.origin));
      }}
    >
      {pending ? "Signing out…" : "Sign out"}
    </button>
  );
}
