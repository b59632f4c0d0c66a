// Which environment the driver site's sign-in form starts on. A link may ask for one
// (`/login?environment=sandbox`, as `npm start` prints for the demo driver); otherwise the one the
// browser last signed in to, so a sandbox tester is not put back on production at every visit;
// production for everyone else.

export type Environment = "production" | "sandbox";

/** The cookie the sign-in and registration forms set after a successful sign-in. */
export const REMEMBERED_ENVIRONMENT_COOKIE = "wayline-environment";

const isEnvironment = (value: unknown): value is Environment => value === "production" || value === "sandbox";

export function signInEnvironment(asked: string | string[] | undefined, remembered: string | undefined): Environment {
  const fromLink = Array.isArray(asked) ? asked[0] : asked;
  if (isEnvironment(fromLink)) return fromLink;
  if (isEnvironment(remembered)) return remembered;
  return "production";
}

/** In the browser, after a successful sign-in: a year-long, site-wide cookie that only preselects a radio button. */
export function rememberEnvironment(environment: Environment): void {
  document.cookie = `${REMEMBERED_ENVIRONMENT_COOKIE}=${environment}; Path=/; Max-Age=31536000; SameSite=Lax`;
}
