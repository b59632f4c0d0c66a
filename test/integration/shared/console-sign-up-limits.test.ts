import { randomInt } from "node:crypto";
import { describe, expect, it } from "vitest";
import { uniqueName } from "@/test/helpers/api";
import { Browser } from "@/test/helpers/browser";

// The partner console's sign-up draws on the registration bucket of its client address, the one
// driver registration uses (docs/console.md#partner-accounts, docs/operations.md#rate-limits), on
// the suite's shared service: RATE_LIMIT_REGISTRATION_ADDRESS at its default, 20 per 10 minutes,
// one coming back every 30 s. A slow run may see a few more admitted than 20, never fewer.

const QUOTA = 20;
const address = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
const email = () => `${uniqueName("limit")}@partner.example`;

/** One sign-up as the console's form posts it, from `from`: the problem it was refused with, or null. */
async function signUp(from: string, mail: string): Promise<any> {
  const browser = new Browser(from);
  const csrf = JSON.parse((await browser.get("/api/partner-auth/csrf")).text).csrfToken as string;
  const res = await browser.post("/api/partner-auth/callback/partner-registration", {
    name: "Lim Partner",
    email: mail,
    password: "partner-password-1",
    csrfToken: csrf,
    callbackUrl: "/console/apps",
    json: "true",
  });
  const error = new URL(JSON.parse(res.text).url as string).searchParams.get("error");
  return error ? JSON.parse(error) : null;
}

const takenAnswer = {
  kind: "fields",
  fieldErrors: [{ fieldName: "email", message: expect.stringContaining("already exists") }],
};

describe("partner sign-up: per address", () => {
  it("past the address's registration bucket every sign-up is refused as registrations_limited, a taken e-mail alike; another address signs up", async () => {
    const taken = email();
    expect(await signUp(address(), taken)).toBeNull();

    // The bucket is spent by attempts on the taken e-mail: each is told so, until the bucket refuses.
    const from = address();
    const answers: any[] = [];
    while (answers.length < 2 * QUOTA) {
      const answer = await signUp(from, taken);
      answers.push(answer);
      if (answer?.kind !== "fields") break;
    }
    const admitted = answers.filter((a) => a?.kind === "fields");
    expect(admitted.length).toBeGreaterThanOrEqual(QUOTA);
    expect(admitted.length, "the taken e-mail never spent the bucket").toBeLessThan(2 * QUOTA);
    for (const answer of admitted) expect(answer).toEqual(takenAnswer);

    // Past it, a fresh e-mail and the taken one get the same answer: nothing tells them apart.
    const fresh = email();
    const beyond = [answers.at(-1), await signUp(from, fresh), await signUp(from, taken), await signUp(from, email())];
    for (const answer of beyond) {
      expect(answer).toEqual({ kind: "registrations_limited", retryAfterSeconds: expect.any(Number) });
      expect(answer.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(answer.retryAfterSeconds).toBeLessThanOrEqual(600);
    }

    // The refused fresh e-mail was not registered, and another address is not affected.
    const elsewhere = address();
    expect(await signUp(elsewhere, fresh)).toBeNull();
    expect(await signUp(elsewhere, taken)).toEqual(takenAnswer);
  });

  it("a driver registration and a partner sign-up from one address draw on the same bucket", async () => {
    const taken = email();
    expect(await signUp(address(), taken)).toBeNull();
    const from = address();
    let admitted = 0;
    while (admitted < 2 * QUOTA && (await signUp(from, taken))?.kind === "fields") admitted++;
    expect(admitted).toBeGreaterThanOrEqual(QUOTA);
    expect(admitted).toBeLessThan(2 * QUOTA);
    const driver = await new Browser(from).credentials("registration", {
      environment: "sandbox",
      firstName: "Same",
      lastName: "Address",
      username: uniqueName("reg"),
      password: "correct-horse-9",
    });
    expect(driver.problem).toEqual({ kind: "registrations_limited", retryAfterSeconds: expect.any(Number) });
  });
});
