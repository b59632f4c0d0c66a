// The driver site's forms talk to its /me/* routes in JSON; an error comes back in the API's
// error shape (docs/api.md#errors) and its fieldErrors are shown on their fields.

export type Sent<T> =
  { ok: true; data: T } | { ok: false; status: number; message: string; fields: Record<string, string> };

export async function sendJson<T>(method: "POST" | "PATCH" | "DELETE", url: string, body?: unknown): Promise<Sent<T>> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    return {
      ok: false,
      status: 0,
      message: "The server could not be reached. Check your connection and try again.",
      fields: {},
    };
  }
  const parsed = (await res.json().catch(() => null)) as unknown;
  if (res.ok) return { ok: true, data: parsed as T };
  if (res.status === 401) {
    // The session ended (signed out elsewhere, expired, account deleted): a full load of the sign-in page.
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination
    window.location.assign(`/login?callbackUrl=${encodeURIComponent(window.location.pathname)}`);
  }
  const error = (
    parsed as { error?: { detail?: string; fieldErrors?: { fieldName: string; errorDisplay: string }[] } } | null
  )?.error;
  const fields: Record<string, string> = {};
  for (const f of error?.fieldErrors ?? []) fields[f.fieldName] ??= f.errorDisplay;
  return {
    ok: false,
    status: res.status,
    message: error?.detail ?? `Something went wrong (HTTP ${res.status}). Please try again.`,
    fields,
  };
}

/** The form's fields as text, trimmed. */
export function formText(form: HTMLFormElement): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new FormData(form)) if (typeof v === "string") out[k] = v.trim();
  return out;
}
