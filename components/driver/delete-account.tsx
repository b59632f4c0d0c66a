"use client";

import { signOut } from "next-auth/react";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { ConfirmDialog, destructiveButton } from "./confirm-dialog";
import { FormMessage } from "./form-message";
import { sendJson } from "./send";

// Deleting the account is permanent (docs/api.md#accounts-and-vehicles): every vehicle and all their data go with it.
// The driver types their username to confirm.
export function DeleteAccount({ username, vehicleCount }: { username: string; vehicleCount: number }) {
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});

  async function confirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const confirmUsername = String(new FormData(event.currentTarget).get("confirmUsername") ?? "");
    setPending(true);
    const sent = await sendJson("DELETE", "/me/account", { confirmUsername });
    if (sent.ok) {
      await signOut({ redirect: false }).catch(() => null);
      // A full page load: nothing the client cached while signed in survives the sign-out.
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination
      window.location.assign("/login?deleted=1");
      return;
    }
    setPending(false);
    setFields(sent.fields);
    setError(sent.message);
  }

  return (
    <>
      <Button type="button" variant="danger" onClick={() => setOpen(true)}>
        Delete account…
      </Button>
      <ConfirmDialog open={open} title="Delete your account?" onClose={() => setOpen(false)}>
        <p className="text-slate-700">
          This permanently deletes your account and{" "}
          {vehicleCount === 1 ? "your vehicle" : `all ${vehicleCount} of your vehicles`}, with every trip, position and
          reading, and ends the access of every connected app. It cannot be undone.
        </p>
        <form onSubmit={confirm} noValidate className="flex flex-col gap-4" aria-label="Confirm account deletion">
          <FormMessage error={error} />
          <Field
            name="confirmUsername"
            label={`Type your username (${username}) to confirm`}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            error={fields.confirmUsername}
          />
          <div className="flex flex-wrap justify-end gap-3">
            <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
              Keep account
            </Button>
            <button type="submit" disabled={pending} className={destructiveButton}>
              {pending ? "Deleting…" : "Delete account permanently"}
            </button>
          </div>
        </form>
      </ConfirmDialog>
    </>
  );
}
