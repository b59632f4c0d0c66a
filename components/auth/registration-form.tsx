"use client";

import { signIn } from "next-auth/react";
import { useRef, useState, type FormEvent } from "react";
import { registrationProblems } from "@/common/auth/registration-form";
import { readSignInProblem } from "@/common/auth/sign-in-errors";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { PreferredContactField } from "@/components/ui/preferred-contact-field";
import { TimeZoneField } from "@/components/ui/time-zone-field";
import { problemMessage } from "./problem-message";
import { rememberEnvironment } from "@/common/auth/sign-in-environment";

type Props = { environment: "production" | "sandbox"; continueTo: string };

const FIELDS = [
  "firstName",
  "lastName",
  "username",
  "password",
  "email",
  "phone",
  "zipcode",
  "timeZone",
  "preferredContact",
] as const;
type Values = Record<(typeof FIELDS)[number], string>;

// The fields of a new account (docs/api.md#accounts-and-vehicles), checked as the driver goes
// with the same schema the server uses; the server's answer (a taken username) lands on the same fields. On success
// next-auth's "registration" provider has created the account and signed the driver in.
export function RegistrationForm({ environment, continueTo }: Props) {
  const [values, setValues] = useState<Values>({
    firstName: "",
    lastName: "",
    username: "",
    password: "",
    email: "",
    phone: "",
    zipcode: "",
    timeZone: "",
    preferredContact: "EMAIL",
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [checked, setChecked] = useState(false);
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  // Empty fields are not sent (a required one is then reported as "Required."), except the time
  // zone: left empty, it is this device's, which only the browser knows.
  const filled = (v: Values) => {
    const sent = Object.fromEntries(Object.entries(v).filter(([, value]) => value.trim() !== ""));
    sent.timeZone ??= Intl.DateTimeFormat().resolvedOptions().timeZone;
    return sent;
  };

  const check = (v: Values) =>
    Object.fromEntries(registrationProblems({ ...filled(v), environment }).map((p) => [p.fieldName, p.message]));

  function change(name: keyof Values, value: string) {
    const next = { ...values, [name]: value };
    setValues(next);
    if (checked) setErrors(check(next));
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setChecked(true);
    setMessage(null);
    const found = check(values);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      focusFirst(found);
      return;
    }
    setPending(true);
    const result = await signIn("registration", {
      redirect: false,
      ...filled(values),
      environment,
      callbackUrl: continueTo,
    }).catch(() => null);
    if (result && !result.error && result.ok && !result.url?.includes("csrf=true")) {
      rememberEnvironment(environment);
      window.location.assign(continueTo);
      return;
    }
    setPending(false);
    const problem = !result
      ? null
      : result.url?.includes("csrf=true")
        ? ({ kind: "expired" } as const)
        : readSignInProblem(result.error);
    if (problem?.kind === "fields") {
      const fromServer = Object.fromEntries(problem.fieldErrors.map((p) => [p.fieldName, p.message]));
      setErrors(fromServer);
      focusFirst(fromServer);
      return;
    }
    setMessage(
      problem
        ? problemMessage(problem, environment)
        : "Creating the account failed. Check your connection and try again.",
    );
  }

  function focusFirst(found: Record<string, string>) {
    const first = FIELDS.find((f) => found[f]);
    if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  }

  const field = (name: keyof Values) => ({
    name,
    value: values[name],
    error: errors[name],
    onChange: (e: { target: { value: string } }) => change(name, e.target.value),
  });

  return (
    <form
      ref={formRef}
      method="post"
      onSubmit={submit}
      className="flex flex-col gap-4"
      noValidate
      aria-label="Create an account"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="First name" autoComplete="given-name" required {...field("firstName")} />
        <Field label="Last name" autoComplete="family-name" required {...field("lastName")} />
      </div>
      <Field
        label="Username"
        autoComplete="username"
        required
        autoCapitalize="none"
        spellCheck={false}
        hint="3 to 100 letters, digits and . _ @ + -"
        {...field("username")}
      />
      <Field
        label="Password"
        type="password"
        autoComplete="new-password"
        required
        hint="At least 8 characters."
        {...field("password")}
      />
      <Field label="E-mail" type="email" autoComplete="email" {...field("email")} />
      <Field label="Phone" type="tel" autoComplete="tel" {...field("phone")} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Zip code" autoComplete="postal-code" hint="Where you mainly drive." {...field("zipcode")} />
        <TimeZoneField
          listId="registration-time-zones"
          hint="Type to search, e.g. America/Chicago. Empty: this device's time zone."
          {...field("timeZone")}
        />
      </div>
      <PreferredContactField
        value={values.preferredContact}
        onChange={(e) => change("preferredContact", e.target.value)}
        error={errors.preferredContact}
      />
      {message ? (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
          {message}
        </p>
      ) : null}
      {checked && Object.keys(errors).length > 0 ? (
        <p role="alert" className="text-sm text-red-800">
          Please correct the highlighted fields.
        </p>
      ) : null}
      <Button type="submit" disabled={pending}>
        {pending ? "Creating your account…" : "Create account"}
      </Button>
    </form>
  );
}
