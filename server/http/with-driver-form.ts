import { ApiError } from "@/common/http/errors";
import { crossSitePost } from "./cross-site";
import { getDriverSession, type DriverSession } from "@/server/surfaces/driver/session";
import { apiErrorOf, isRefusal } from "./refusal";

// The wrapper of the driver site's plain HTML form posts (the connected-apps page's Revoke): posts
// from another site refused, the signed-in driver or the sign-in page (303, coming back to
// `signInReturn`), the form read (else 400), and the handler's answer (a 303 back to its page). A refusal, an
// error of the one type, is answered as its status and detail in plain text: a form posted
// without JavaScript is shown by the browser as it is, and there is no field to mark.

const noStore = { "Cache-Control": "no-store" };

export const seeOther = (location: string) =>
  new Response(null, { status: 303, headers: { Location: location, ...noStore } });

export function withDriverForm(
  { form: formName, signInReturn }: { form: string; signInReturn: string },
  handler: (input: { session: DriverSession; form: Record<string, unknown> }) => Promise<Response>,
) {
  return async (request: Request): Promise<Response> => {
    try {
      if (crossSitePost(request))
        throw new ApiError("FORBIDDEN", "This request came from another site and was ignored.");
      const session = await getDriverSession();
      if (!session) return seeOther(`/login?callbackUrl=${encodeURIComponent(signInReturn)}`);
      const form = await request.formData().catch(() => {
        throw new ApiError("VALIDATION", `The ${formName} could not be read.`);
      });
      return await handler({ session, form: Object.fromEntries(form) });
    } catch (error) {
      const answered = apiErrorOf(error, "a driver form post");
      const refusal = isRefusal(answered) ? answered : undefined;
      return new Response(refusal?.detail ?? "Something went wrong on our side. Try again.", {
        status: refusal?.status ?? 500,
        headers: { "Content-Type": "text/plain; charset=utf-8", ...noStore, ...answered.headers },
      });
    }
  };
}
