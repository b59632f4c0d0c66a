"use client";

import { useRouter } from "next/navigation";
import { useMemo, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { preferredContacts, type AccountOut } from "@/common/accounts/schemas";
import { FormMessage } from "./form-message";
import { formText, sendJson } from "./send";

const contactLabels: Record<(typeof preferredContacts)[number], string> = { EMAIL: "E-mail", PHONE: "Phone call", SMS: "Text message", MAIL: "Mail" };

// The account fields (POST /me/account, the API's account schema; docs/api.md#accounts-and-vehicles). An
// emptied optional field is cleared.
export function AccountForm({ account }: { account: AccountOut }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const timeZones = useMemo(() => (typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : []), []);

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
        <Field name="firstName" label="First name" defaultValue={account.firstName} autoComplete="given-name" required error={fields.firstName} />
        <Field name="lastName" label="Last name" defaultValue={account.lastName} autoComplete="family-name" required error={fields.lastName} />
      </div>
      <Field name="username" label="Username" defaultValue={account.username ?? ""} autoComplete="username" autoCapitalize="none" spellCheck={false} required error={fields.username} />
      <Field name="email" label="E-mail" type="email" defaultValue={account.email ?? ""} autoComplete="email" error={fields.email} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field name="phone" label="Phone" type="tel" defaultValue={account.phone ?? ""} autoComplete="tel" error={fields.phone} />
        <Field name="zipcode" label="Zip code" defaultValue={account.zipcode ?? ""} autoComplete="postal-code" hint="Where you mainly drive." error={fields.zipcode} />
      </div>
      <Field
        name="timeZone"
        label="Time zone"
        list="account-time-zones"
        autoComplete="off"
        defaultValue={account.timeZone ?? ""}
        hint="Type to search, e.g. Europe/Berlin. Times on this site are shown in it."
        error={fields.timeZone}
      />
      <datalist id="account-time-zones">
        {timeZones.map((zone) => (
          <option key={zone} value={zone} />
        ))}
      </datalist>
      <div className="flex flex-col gap-1">
        <label htmlFor="field-preferredContact" className="text-sm font-medium text-slate-800">
          Preferred contact
        </label>
        <select
          id="field-preferredContact"
          name="preferredContact"
          defaultValue={account.preferredContact ?? ""}
          aria-invalid={fields.preferredContact ? true : undefined}
          aria-describedby={fields.preferredContact ? "field-preferredContact-error" : undefined}
          className="min-h-11 rounded-lg border border-slate-300 bg-white px-3 py-2 text-base shadow-sm"
        >
          <option value="">Not set</option>
          {preferredContacts.map((c) => (
            <option key={c} value={c}>
              {contactLabels[c]}
            </option>
          ))}
        </select>
        {fields.preferredContact ? (
          <p id="field-preferredContact-error" className="text-sm text-red-700">
            {fields.preferredContact}
          </p>
        ) : null}
      </div>
      <Button type="submit" disabled={pending} className="self-start">
        {pending ? "Saving…" : "Save account"}
      </Button>
    </form>
  );
}
