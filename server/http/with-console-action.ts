import { ApiError, validationError } from "@/common/http/errors";
import { nulField } from "@/common/http/nul";
import { toFieldErrors } from "@/common/http/zod-errors";
import { crossSitePost } from "./cross-site";
import type { Action, ActionResult } from "@/server/surfaces/console/actions";
import { consoleCsrfMatches } from "@/server/surfaces/console/csrf";
import { notOwned } from "@/server/surfaces/console/errors";
import { getPartnerSession } from "@/server/surfaces/console/session";
import { consoleFailure } from "./console-failure";
import { escapeHtml, plainPage } from "./plain-page";

// The one wrapper every console form post goes through: cross-site posts refused, a partner
// session required, the session's CSRF token required, the input parsed, the action run, and
// every refusal (an error of the one type, thrown here or by the console's services) translated
// by consoleFailure into a status with field errors (never a 500 for bad input).
// Answers JSON {redirect, reveal} to the console's forms (fetch); a plain HTML form post (no
// JavaScript yet) is answered 303 to `redirect`, or, when the action reveals values once (a new
// secret, test credentials), with a page showing them and a Done button that goes on to `redirect`.

type Context = { params: Promise<{ action: string }> };

const noStore = { "Cache-Control": "no-store" };

export function withConsoleAction(actions: Record<string, Action>) {
  return async (request: Request, context: Context): Promise<Response> => {
    const name = (await context.params).action;
    try {
      const result = await runAction(actions, name, request);
      const wantsJson = (request.headers.get("accept") ?? "").includes("application/json");
      if (wantsJson) return Response.json(result, { headers: noStore });
      // Posted before the page's script ran (or without JavaScript): the one-time values on a page
      // of their own rather than lost in a redirect.
      if (result.reveal) return revealPage(result.redirect, result.reveal);
      return new Response(null, { status: 303, headers: { Location: result.redirect } });
    } catch (error) {
      const failure = consoleFailure(error, `the console action ${name}`);
      return Response.json(failure.body, { status: failure.status, headers: { ...noStore, ...failure.headers } });
    }
  };
}

const fieldsInvalid = "Check the highlighted fields.";

async function runAction(actions: Record<string, Action>, name: string, request: Request): Promise<ActionResult> {
  if (crossSitePost(request)) throw new ApiError("FORBIDDEN", "This form was posted from another site.");
  const act = Object.hasOwn(actions, name) ? actions[name] : undefined;
  if (!act) throw new ApiError("NOT_FOUND", "No such action.");
  const partner = await getPartnerSession();
  if (!partner) throw new ApiError("UNAUTHORIZED", "Your session has ended. Sign in again.");
  const form = await request.formData().catch(() => {
    throw new ApiError("UNSUPPORTED_MEDIA_TYPE", "Send the form as form data.");
  });
  if (!consoleCsrfMatches(partner, form.get("csrfToken")))
    throw new ApiError("FORBIDDEN", "This form has expired. Reload the page and try again.");
  const input = formObject(form);
  // U+0000 cannot be stored (PostgreSQL): refused like any invalid field, before the schema.
  const nul = nulField(input);
  if (nul)
    throw validationError(
      [{ fieldName: nul, errorCode: "INVALID", errorDisplay: "Must not contain the NUL character (U+0000)." }],
      fieldsInvalid,
    );
  const parsed = act.schema.safeParse(input, { reportInput: true });
  if (!parsed.success) {
    const errors = toFieldErrors(parsed.error);
    // A malformed id is a guess at something that is not there.
    if (errors.some((e) => /^(appId|subscriptionId|deliveryId|notificationId|runId)$/.test(e.fieldName)))
      throw notOwned();
    throw validationError(errors, fieldsInvalid);
  }
  return act.run(partner, parsed.data as never);
}

function formObject(form: FormData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of new Set(form.keys())) {
    const values = form.getAll(key).filter((v): v is string => typeof v === "string");
    out[key] = key === "daysOfWeek" ? values : values[0];
  }
  return out;
}

function revealPage(redirect: string, reveal: NonNullable<ActionResult["reveal"]>): Response {
  const values = Object.entries(reveal)
    .map(([key, value]) => `<dt>${escapeHtml(key)}</dt><dd>${escapeHtml(String(value))}</dd>`)
    .join("");
  // A GET form drops its action's query: the query goes in hidden fields.
  const next = new URL(redirect, "http://console.invalid");
  const query = [...next.searchParams]
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("");
  return plainPage(
    200,
    "Copy these values now",
    `<p>They are shown only this once.</p><dl>${values}</dl>
<form method="get" action="${escapeHtml(next.pathname)}">${query}<button type="submit">Done</button></form>`,
    noStore,
  );
}
