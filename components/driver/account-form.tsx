"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { PreferredContactField } from "@/components/ui/preferred-contact-field";
import { TimeZoneField } from "@/components/ui/time-zone-field";
import type { AccountOut } from "@/common/accounts/schemas";
import { FormMessage } from "./form-message";
import { formText, sendJson } from "./send";

// The account fields (POST /me/account, the API's account schema; docs/api.md#accounts-and-vehicles). An
// emptied optional field is cleared.
export function AccountForm({ account }: { account: AccountOut }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setSaved(null);
    const sent = await sendJson<{ account: AccountOut }>("POST", "/me/account", formText(event.currentTarget));
    setPending(false);
    if (sent.ok) {
      setFields({});
      setError(null);
      setSaved("Your account is saved.");
      router.refresh();
      return;
    }
    setFields(sent.fields);
    setError(sent.message);
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Account details" className="flex flex-col gap-4">
      <FormMessage error={error} success={saved} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          name="firstName"
          label="First name"
          defaultValue={account.firstName}
          autoComplete="given-name"
          required
          error={fields.firstName}
        />
        <Field
          name="lastName"
          label="Last name"
          defaultValue={account.lastName}
          autoComplete="family-name"
          required
          error={fields.lastName}
        />
      </div>
      <Field
        name="username"
        label="Username"
        defaultValue={account.username ?? ""}
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        required
        error={fields.username}
      />
      <Field
        name="email"
        label="E-mail"
        type="email"
        defaultValue={account.email ?? ""}
        autoComplete="email"
        error={fields.email}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          name="phone"
          label="Phone"
          type="tel"
          defaultValue={account.phone ?? ""}
          autoComplete="tel"
          error={fields.phone}
        />
        <Field
          name="zipcode"
          label="Zip code"
          defaultValue={account.zipcode ?? ""}
          autoComplete="postal-code"
          hint="Where you mainly drive."
          error={fields.zipcode}
        />
      </div>
      <TimeZoneField
        listId="account-time-zones"
        defaultValue={account.timeZone ?? ""}
        hint="Type to search, e.g. Europe/Berlin. Times on this site are shown in it."
        error={fields.timeZone}
      />
      <PreferredContactField unset defaultValue={account.preferredContact ?? ""} error={fields.preferredContact} />
      <Button type="submit" disabled={pending} className="self-start">
        {pending ? "Saving…" : "Save account"}
      </Button>
    </form>
  );
}
