import { describe, expect, it } from "vitest";
import { localPathOr } from "@/server/platform/request/local-path";
import { registrationProblems } from "@/common/auth/registration-form";
import { readSignInProblem } from "@/common/auth/sign-in-errors";
import { ACCOUNT_POLICY, ADDRESS_POLICY, blockAfter } from "@/server/platform/sign-in/throttle";
import { describeDestination } from "@/server/surfaces/authorize/destination";
import { clientRedirect, withoutFragment } from "@/server/oauth/authorize/redirect";

describe("clientRedirect (docs/oauth.md)", () => {
  it("appends a query string, skipping absent values", () => {
    expect(clientRedirect("https://app.example/cb", { code: "c1", state: null }, "query")).toBe(
      "https://app.example/cb?code=c1",
    );
  });

  it("joins with & when the URI already has a query", () => {
    expect(clientRedirect("https://app.example/cb?tenant=a", { code: "c1", state: "s" }, "query")).toBe(
      "https://app.example/cb?tenant=a&code=c1&state=s",
    );
  });

  it("does not double a trailing ? or &", () => {
    expect(clientRedirect("https://app.example/cb?", { code: "c" }, "query")).toBe("https://app.example/cb?code=c");
    expect(clientRedirect("https://app.example/cb?a=1&", { code: "c" }, "query")).toBe(
      "https://app.example/cb?a=1&code=c",
    );
  });

  it("puts the parameters in the fragment for response_mode=fragment", () => {
    expect(clientRedirect("carlocator://cb", { access_token: "t", token_type: "bearer" }, "fragment")).toBe(
      "carlocator://cb#access_token=t&token_type=bearer",
    );
  });

  it("encodes the state as given", () => {
    expect(clientRedirect("https://app.example/cb", { state: "a b&c=d" }, "query")).toBe(
      "https://app.example/cb?state=a+b%26c%3Dd",
    );
  });

  it("appends inside a registered fragment, after a ?, as the original's single-page apps read it", () => {
    const token = { access_token: "t", token_type: "bearer", expires_in: "86400", state: "s" };
    expect(clientRedirect("http://127.0.0.1:8080/#/authorized", token, "query")).toBe(
      "http://127.0.0.1:8080/#/authorized?access_token=t&token_type=bearer&expires_in=86400&state=s",
    );
  });

  it("joins with & only when the registered fragment itself already has a ?", () => {
    expect(clientRedirect("https://app.example/spa?x=1#/authorized", { access_token: "t" }, "query")).toBe(
      "https://app.example/spa?x=1#/authorized?access_token=t",
    );
    expect(clientRedirect("https://app.example/spa?x=1#/authorized?tenant=a", { access_token: "t" }, "query")).toBe(
      "https://app.example/spa?x=1#/authorized?tenant=a&access_token=t",
    );
    expect(clientRedirect("https://app.example/#/authorized?", { access_token: "t" }, "query")).toBe(
      "https://app.example/#/authorized?access_token=t",
    );
  });

  it("withoutFragment gives the library the URI up to the #", () => {
    expect(withoutFragment("http://127.0.0.1:8080/#/authorized?x=1")).toBe("http://127.0.0.1:8080/");
    expect(withoutFragment("https://app.example/cb?x=1")).toBe("https://app.example/cb?x=1");
  });

  it("puts errors inside a registered fragment too, whatever the response_mode", () => {
    const error = { error: "access_denied", error_description: "No.", state: "s" };
    const expected = "http://127.0.0.1:8080/#/authorized?error=access_denied&error_description=No.&state=s";
    expect(clientRedirect("http://127.0.0.1:8080/#/authorized", error, "query")).toBe(expected);
    expect(clientRedirect("http://127.0.0.1:8080/#/authorized", error, "fragment")).toBe(expected);
  });
});

describe("blockAfter (sign-in slowdown)", () => {
  it("lets the free failures through, then waits 30 s, doubling up to 15 minutes", () => {
    expect([1, 4].map((n) => blockAfter(n, ACCOUNT_POLICY))).toEqual([null, null]);
    expect([5, 6, 7, 8].map((n) => blockAfter(n, ACCOUNT_POLICY))).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(blockAfter(50, ACCOUNT_POLICY)).toBe(15 * 60_000);
    expect(blockAfter(19, ADDRESS_POLICY)).toBeNull();
    expect(blockAfter(20, ADDRESS_POLICY)).toBe(30_000);
  });
});

describe("localPathOr (no open redirect after sign-in)", () => {
  it.each([
    ["/connected-apps", "/connected-apps"],
    ["/oauth/authorize?client_id=x", "/oauth/authorize?client_id=x"],
    ["https://evil.example/", "/fallback"],
    ["//evil.example/", "/fallback"],
    ["/\\evil.example", "/fallback"],
    ["javascript:alert(1)", "/fallback"],
    ["", "/fallback"],
  ])("%s → %s", (input, expected) => {
    expect(localPathOr(input, "/fallback")).toBe(expected);
  });
});

describe("registrationProblems", () => {
  it("reports every field at once, the contact rule included", () => {
    const problems = Object.fromEntries(
      registrationProblems({ environment: "sandbox", password: "short", preferredContact: "PHONE" }).map((p) => [
        p.fieldName,
        p.message,
      ]),
    );
    expect(problems).toEqual({
      firstName: "Required.",
      lastName: "Required.",
      username: "Required.",
      password: "Must be at least 8 characters.",
      phone: "Needed, since you prefer to be contacted by phone.",
    });
  });

  it("accepts a complete registration", () => {
    expect(
      registrationProblems({
        environment: "production",
        firstName: "A",
        lastName: "B",
        username: "ab.c",
        password: "12345678",
        email: "a@b.example",
        preferredContact: "email",
      }),
    ).toEqual([]);
  });
});

describe("readSignInProblem", () => {
  it("reads Wayline's problems and treats anything else as bad credentials", () => {
    expect(readSignInProblem('{"kind":"throttled","retryAfterSeconds":30}')).toEqual({
      kind: "throttled",
      retryAfterSeconds: 30,
    });
    expect(readSignInProblem("CredentialsSignin")).toEqual({ kind: "invalid_credentials", waitSeconds: 0 });
    expect(readSignInProblem('{"kind":"nonsense"}')).toEqual({ kind: "invalid_credentials", waitSeconds: 0 });
  });
});

describe("describeDestination", () => {
  it("names the host of a web address and the scheme of an app link", () => {
    expect(describeDestination("https://partner.example/cb?x=1")).toBe("partner.example");
    expect(describeDestination("http://127.0.0.1:8765/cb")).toBe("127.0.0.1:8765");
    expect(describeDestination("http://127.0.0.1:8765/#/authorized")).toBe("127.0.0.1:8765");
    expect(describeDestination("carlocator://oauth/callback")).toBe("the app that opens carlocator:// links");
  });
});
