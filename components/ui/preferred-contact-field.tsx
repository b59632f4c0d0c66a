import type { SelectHTMLAttributes } from "react";
import { preferredContacts } from "@/common/accounts/schemas";
import { fieldDescribedBy, FieldFrame } from "./field";

const contactLabels: Record<(typeof preferredContacts)[number], string> = {
  EMAIL: "E-mail",
  PHONE: "Phone call",
  SMS: "Text message",
  MAIL: "Mail",
};

type Props = Omit<SelectHTMLAttributes<HTMLSelectElement>, "id" | "name"> & { error?: string; unset?: boolean };

// The account's preferred contact (registration and the driver's account form). `unset` offers
// "Not set", for an account that may clear it.
export function PreferredContactField({ error, unset = false, ...select }: Props) {
  const id = "field-preferredContact";
  return (
    <FieldFrame id={id} label="Preferred contact" error={error}>
      <select
        id={id}
        name="preferredContact"
        aria-invalid={error ? true : undefined}
        aria-describedby={fieldDescribedBy(id, undefined, error)}
        className="min-h-11 rounded-lg border border-slate-300 bg-white px-3 py-2 text-base shadow-sm"
        {...select}
      >
        {unset ? <option value="">Not set</option> : null}
        {preferredContacts.map((c) => (
          <option key={c} value={c}>
            {contactLabels[c]}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}
