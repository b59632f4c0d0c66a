import { useState } from "react";

type Failure = { error?: string; fieldErrors?: { fieldName: string; errorDisplay: string }[] };
type Reveal = Record<string, string | number>;
export type PanelMessage = { tone: "error" | "ok"; text: string };

async function post(
  action: string,
  fields: Record<string, string>,
): Promise<{ ok: true; reveal: Reveal } | { ok: false; status: number; failure: Failure }> {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  try {
    const res = await fetch(`/console/actions/${action}`, {
      method: "POST",
      body,
      headers: { Accept: "application/json" },
    });
    const json = (await res.json().catch(() => null)) as ({ reveal?: Reveal } & Failure) | null;
    if (res.ok && json) return { ok: true, reveal: json.reveal ?? {} };
    return { ok: false, status: res.status, failure: json ?? { error: `The request failed (${res.status}).` } };
  } catch {
    return {
      ok: false,
      status: 0,
      failure: { error: "The console could not be reached. Check your connection and try again." },
    };
  }
}

// The panel's three console actions (start, stop, save a route) share one pending flag, one
// message line and the field errors of the last refusal. send() posts with the app and the CSRF
// token and answers the action's reveal, or null after showing the refusal.
export function useSimulatorPost(appId: number, csrfToken: string) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<PanelMessage | null>(null);
  const [pending, setPending] = useState(false);

  async function send(action: string, fields: Record<string, string>): Promise<Reveal | null> {
    setPending(true);
    const result = await post(action, { csrfToken, appId: String(appId), ...fields });
    setPending(false);
    if (result.ok) return result.reveal;
    setErrors(Object.fromEntries((result.failure.fieldErrors ?? []).map((e) => [e.fieldName, e.errorDisplay])));
    setMessage({ tone: "error", text: result.failure.error ?? "The request failed." });
    return null;
  }

  return { errors, setErrors, message, setMessage, pending, send };
}
