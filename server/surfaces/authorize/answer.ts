// What a step of the authorization page decides, for the edge to send (server/http/oauth-responses.ts):
// the browser sent on (to the app with a code, a token or an error, or to the next step of the
// page), or our error page shown instead, when the request cannot be trusted with a redirect
// (RFC 6749 §4.1.2.1) or the consent form cannot be answered.
export type AuthorizationAnswer =
  { kind: "redirect"; location: string } | { kind: "error-page"; status: 400 | 403; title: string; message: string };

export const sendTo = (location: string): AuthorizationAnswer => ({ kind: "redirect", location });

export const errorPage = (status: 400 | 403, title: string, message: string): AuthorizationAnswer => ({
  kind: "error-page",
  status,
  title,
  message,
});
