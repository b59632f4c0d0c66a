import { randomInt } from "node:crypto";
import { inject } from "vitest";
import { uniqueName, type Env } from "./api";

// A driver's browser, over plain HTTP: a cookie jar, an address of its own (X-Forwarded-For; the
// integration service trusts it, see global-setup.ts), manual redirects. It signs in and
// registers the way next-auth's client does (CSRF token, then the credentials callback), and
// walks the authorization page and its consent form like a person clicking through.

export type Page = { status: number; headers: Headers; location: string | null; text: string };

export type Step =
  | { kind: "redirect"; location: string; status: number }
  | { kind: "sign-in"; page: Page }
  | { kind: "consent"; page: Page; form: Record<string, string> }
  | { kind: "error-page"; page: Page };

export const baseUrl = () => inject("baseUrl");
export const authorizeUrl = (params: Record<string, string>, path = "/oauth/authorize") =>
  `${baseUrl()}${path}?${new URLSearchParams(params)}`;

export class Browser {
  readonly cookies = new Map<string, string>();

  /** base: the service to browse (the suite's shared one unless given). */
  constructor(
    readonly address = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`,
    readonly base?: string,
  ) {}

  async request(
    method: string,
    url: string,
    init: { form?: Record<string, string>; json?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Page> {
    const headers: Record<string, string> = { "X-Forwarded-For": this.address, ...init.headers };
    if (this.cookies.size > 0) headers.Cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    let body: string | undefined;
    if (init.form) {
      body = new URLSearchParams(init.form).toString();
      headers["Content-Type"] ??= "application/x-www-form-urlencoded";
    } else if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      headers["Content-Type"] ??= "application/json";
    }
    const res = await fetch(url.startsWith("/") ? (this.base ?? baseUrl()) + url : url, {
      method,
      headers,
      body,
      redirect: "manual",
    });
    for (const cookie of res.headers.getSetCookie()) this.remember(cookie);
    return { status: res.status, headers: res.headers, location: res.headers.get("location"), text: await res.text() };
  }

  get(url: string) {
    return this.request("GET", url);
  }

  post(url: string, form: Record<string, string>, headers: Record<string, string> = {}) {
    return this.request("POST", url, { form, headers });
  }

  private remember(setCookie: string) {
    const [pair, ...attributes] = setCookie.split(";");
    const eq = pair!.indexOf("=");
    const name = pair!.slice(0, eq).trim();
    const value = pair!.slice(eq + 1).trim();
    const expired = attributes.some(
      (a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split("=")[1]!) < Date.now()),
    );
    if (expired || value === "") this.cookies.delete(name);
    else this.cookies.set(name, value);
  }

  get signedIn() {
    return [...this.cookies.keys()].some((k) => k.endsWith("next-auth.session-token"));
  }

  /** next-auth's CSRF token (and its cookie). */
  async csrfToken(): Promise<string> {
    const res = await this.get("/api/auth/csrf");
    return JSON.parse(res.text).csrfToken as string;
  }

  /** Posts to a credentials provider as next-auth's signIn() does; the answer's `error`, parsed, or null on success. */
  async credentials(
    provider: "password" | "registration",
    fields: Record<string, string>,
  ): Promise<{ status: number; problem: any; url: string }> {
    const res = await this.post(`/api/auth/callback/${provider}`, {
      ...fields,
      csrfToken: await this.csrfToken(),
      callbackUrl: "/",
      json: "true",
    });
    const url = JSON.parse(res.text).url as string;
    const error = new URL(url).searchParams.get("error");
    let problem: any = null;
    if (error) {
      try {
        problem = JSON.parse(error);
      } catch {
        problem = error;
      }
    }
    return { status: res.status, problem, url };
  }

  signIn(environment: Env, username: string, password: string) {
    return this.credentials("password", { environment, username, password });
  }

  /** Registers a new driver (signing this browser in); fails the test when the service refuses. */
  async register(environment: Env, overrides: Record<string, string> = {}) {
    const fields = {
      environment,
      firstName: "Reg",
      lastName: "Istered",
      username: uniqueName("reg"),
      password: "correct-horse-9",
      email: "reg@example.com",
      timeZone: "Europe/Berlin",
      preferredContact: "EMAIL",
      ...overrides,
    };
    const res = await this.credentials("registration", fields);
    if (res.status !== 200 || res.problem)
      throw new Error(`registration failed: ${res.status} ${JSON.stringify(res.problem)}`);
    return { username: fields.username, password: fields.password };
  }

  async session(): Promise<any> {
    return JSON.parse((await this.get("/api/auth/session")).text);
  }

  /** Follows an authorization request to where it stops: a redirect to the app, a sign-in page, the consent form or an error page. */
  async authorize(url: string): Promise<Step> {
    const first = await this.get(url);
    if (first.status === 400 || first.status === 403) return { kind: "error-page", page: first };
    if (first.status !== 302 && first.status !== 303)
      throw new Error(`authorize answered ${first.status}: ${first.text.slice(0, 300)}`);
    if (!first.location!.startsWith("/oauth/authorize/continue"))
      return { kind: "redirect", location: first.location!, status: first.status };
    return this.continuePage(first.location!);
  }

  async continuePage(path: string): Promise<Step> {
    const page = await this.get(path);
    if (page.status !== 200) throw new Error(`continue page answered ${page.status}`);
    const form = hiddenFields(page.text);
    if (form.csrf_token) return { kind: "consent", page, form };
    if (visibleText(page.text).includes("Sign in to continue")) return { kind: "sign-in", page };
    return { kind: "error-page", page };
  }

  /** Submits the consent form as shown; returns the 303's Location. */
  async decide(step: Step, decision: "allow" | "deny", tamper: Record<string, string> = {}): Promise<Page> {
    if (step.kind !== "consent") throw new Error(`expected the consent form, got ${step.kind}`);
    return this.post("/oauth/authorize/decision", { ...step.form, decision, ...tamper });
  }

  /** The whole way to the app for a signed-in driver: consent (allowed) when asked. */
  async authorizeAndAllow(url: string): Promise<URL> {
    const step = await this.authorize(url);
    if (step.kind === "redirect") return new URL(step.location);
    const answer = await this.decide(step, "allow");
    if (answer.status !== 303 || !answer.location)
      throw new Error(`decision answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    return new URL(answer.location);
  }
}

const decode = (v: string) =>
  v
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** The hidden inputs of a server-rendered form. */
export function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [tag] of html.matchAll(/<input\b[^>]*>/g)) {
    if (!/type="hidden"/.test(tag)) continue;
    const name = /name="([^"]*)"/.exec(tag)?.[1];
    const value = /value="([^"]*)"/.exec(tag)?.[1];
    if (name !== undefined && value !== undefined) fields[decode(name)] = decode(value);
  }
  return fields;
}

/** The parameters a redirect to the app carries, from its query or (response_mode=fragment) its fragment. */
export function redirectParams(location: string | URL, mode: "query" | "fragment" = "query"): Record<string, string> {
  const url = new URL(location);
  return Object.fromEntries(new URLSearchParams(mode === "fragment" ? url.hash.slice(1) : url.search));
}

/** What a person reads on a server-rendered page: no scripts, tags or React's text separators. */
export function visibleText(html: string): string {
  return decode(
    html
      .replace(/<script\b[\s\S]*?<\/script>/g, " ")
      .replace(/<style\b[\s\S]*?<\/style>/g, " ")
      .replace(/<!--[\s\S]*?-->/g, "")
      .replace(/<[^>]+>/g, " "),
  )
    .replace(/\s+/g, " ")
    .replace(/ ([.,;:?!])/g, "$1")
    .trim();
}
