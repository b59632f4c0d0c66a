"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormMessage } from "./form-message";
import { sendJson } from "./send";

// Changes the password (POST /me/account/password); the current one is asked for.
export function PasswordForm() {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const currentPassword = String(data.get("currentPassword") ?? "");
    const password = String(data.get("password") ?? "");
    setSaved(null);
    if (password !== String(data.get("confirmPassword") ?? "")) {
      setFields({ confirmPassword: "The two new passwords differ." });
      setError("The password was not changed.");
      return;
    }
    setPending(true);
    const sent = await sendJson("POST", "/me/account/password", { currentPassword, password });
    setPending(false);
    if (sent.ok) {
      form.reset();
      setFields({});
      setError(null);
      setSaved("Your password is changed. Use the new one next time you sign in.");
      return;
    }
    setFields(sent.fields);
    setError(sent.message);
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Change password" className="flex flex-col gap-4">
      <FormMessage error={error} success={saved} />
      <Field
        name="currentPassword"
        label="Current password"
        type="password"
        autoComplete="current-password"
        required
        error={fields.currentPassword}
      />
      <Field
        name="password"
        label="New password"
        type="password"
        autoComplete="new-password"
        required
        hint="8 to 200 characters."
        error={fields.password}
      />
      <Field
        name="confirmPassword"
        label="New password again"
        type="password"
        autoComplete="new-password"
        required
        error={fields.confirmPassword}
      />
      <Button type="submit" disabled={pending} className="self-start">
        {pending ? "Changing…" : "Change password"}
      </Button>
    </form>
  );
}
