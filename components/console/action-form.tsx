"use client";

import { useRouter } from "next/navigation";
import { createContext, useContext, useState, type FormEvent, type ReactNode } from "react";
import { CopyValue } from "./copy-value";

type FieldErrors = Record<string, string>;
const ErrorsContext = createContext<FieldErrors>({});

/** The error the last post gave this field, for fields inside an ActionForm. */
export const useFieldError = (name: string) => useContext(ErrorsContext)[name];

type Props = {
  action: string;
  csrfToken: string;
  children: ReactNode;
  className?: string;
  label: string;
  /** Shown above what the server reveals once (a new secret, test credentials). */
  revealTitle?: string;
  revealNote?: ReactNode;
  confirm?: string;
  /** Refresh the page behind a reveal at once (the form stays on it), e.g. to list the app just created. */
  refreshOnReveal?: boolean;
};

type Reveal = { redirect: string; reveal?: Record<string, string | number> };

// A console form: posts to /console/actions/{action} (form data, with the session's CSRF token),
// shows field errors next to their fields and the form's error above the buttons, and on success
// either shows what the server reveals once or follows the server's redirect. Without JavaScript
// the same form posts normally and the server answers 303.
export function ActionForm({
  action,
  csrfToken,
  children,
  className = "",
  label,
  revealTitle,
  revealNote,
  confirm,
  refreshOnReveal = false,
}: Props) {
  const router = useRouter();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [revealed, setRevealed] = useState<Reveal | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (confirm && !window.confirm(confirm)) return;
    const form = event.currentTarget;
    setPending(true);
    setMessage(null);
    try {
      const response = await fetch(`/console/actions/${action}`, {
        method: "POST",
        body: new FormData(form),
        headers: { Accept: "application/json" },
      });
      const body = (await response.json().catch(() => null)) as
        (Reveal & { error?: string; fieldErrors?: { fieldName: string; errorDisplay: string }[] }) | null;
      if (!response.ok || !body) {
        setErrors(Object.fromEntries((body?.fieldErrors ?? []).map((e) => [e.fieldName, e.errorDisplay])));
        setMessage(body?.error ?? `The request failed (${response.status}).`);
        return;
      }
      setErrors({});
      if (body.reveal) {
        // No refresh yet: the page may no longer render this form (the obligations form, once
        // production credentials exist), and the one-time value would vanish with it. "Done" refreshes.
        setRevealed(body);
        form.reset();
        if (refreshOnReveal) router.refresh();
      } else {
        router.push(body.redirect);
        router.refresh();
      }
    } catch {
      setMessage("The console could not be reached. Check your connection and try again.");
    } finally {
      setPending(false);
    }
  }

  return (
    <ErrorsContext.Provider value={errors}>
      <form
        method="post"
        action={`/console/actions/${action}`}
        onSubmit={submit}
        className={className}
        aria-label={label}
        aria-busy={pending}
        noValidate
      >
        <input type="hidden" name="csrfToken" value={csrfToken} />
        <fieldset disabled={pending} className="contents">
          {children}
        </fieldset>
        {message ? (
          <p role="alert" className="mt-3 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
            {message}
          </p>
        ) : null}
        {pending ? (
          <p role="status" className="mt-2 text-sm text-slate-600">
            Working…
          </p>
        ) : null}
      </form>
      {revealed?.reveal ? (
        <div role="status" className="mt-4 rounded-lg border border-emerald-300 bg-emerald-50 p-4" data-testid="reveal">
          <p className="font-semibold text-emerald-900">{revealTitle ?? "Done"}</p>
          {revealNote ? <p className="mt-1 text-sm text-emerald-900">{revealNote}</p> : null}
          <dl className="mt-3 flex flex-col gap-2">
            {Object.entries(revealed.reveal).map(([key, value]) => (
              <CopyValue key={key} label={key} value={String(value)} />
            ))}
          </dl>
          <button
            type="button"
            className="mt-3 min-h-11 rounded-lg bg-emerald-800 px-4 text-sm font-semibold text-white hover:bg-emerald-900"
            onClick={() => {
              setRevealed(null);
              router.push(revealed.redirect);
              router.refresh();
            }}
          >
            Done
          </button>
        </div>
      ) : null}
    </ErrorsContext.Provider>
  );
}
