import Link from "next/link";
import { Button } from "@/components/ui/button";
import { Card, EnvironmentBadge } from "@/components/ui/card";
import type { GrantScope, LocationPrecision } from "@/common/oauth/grant-scope";
import { appAbilities, LOCATION_WORDS } from "./abilities";

type Props = {
  appName: string;
  ownerName: string | null;
  environment: "production" | "sandbox";
  driver: { name: string; username: string };
  destination: string;
  implicit: boolean;
  action: string;
  hidden: Record<string, string>;
  csrfToken: string;
  /** Where to go to sign in as someone else. */
  switchAccount: string;
  /** What the app asks for, and the precisions the driver may grant (the most asked first). */
  asked: GrantScope;
  locationChoices: LocationPrecision[];
};

// The consent screen: which app, who publishes it, what it gets, where the driver goes next.
// A plain form: Allow and Deny post to the decision endpoint, which answers 303.
export function ConsentCard({
  appName,
  ownerName,
  environment,
  driver,
  destination,
  implicit,
  action,
  hidden,
  csrfToken,
  switchAccount,
  asked,
  locationChoices,
}: Props) {
  return (
    <Card>
      <div className="flex items-center justify-between gap-3">
        <p className="text-sm font-semibold uppercase tracking-wide text-blue-700">Wayline</p>
        <EnvironmentBadge environment={environment} />
      </div>
      <h1 className="mt-3 text-2xl font-bold tracking-tight">Allow {appName} to access your account?</h1>
      <p className="mt-2 text-sm text-slate-700">
        {ownerName ? (
          <>
            {appName} is published by <strong>{ownerName}</strong>
            {ownerName.endsWith(".") ? "" : "."}
          </>
        ) : (
          <>The developer of {appName} has not given a name.</>
        )}
      </p>

      <div className="mt-5 rounded-lg bg-slate-50 p-4">
        <p className="text-sm font-medium text-slate-900">{appName} asks to:</p>
        <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-700" aria-label="What the app asks for">
          {appAbilities(asked).map((ability) => (
            <li key={ability}>{ability};</li>
          ))}
          <li>
            {implicit ? "do so for 24 hours, unless you revoke it sooner." : "keep this access until you revoke it."}
          </li>
        </ul>
      </div>

      <p className="mt-4 text-sm text-slate-700">
        Signed in as <strong>{driver.name}</strong> ({driver.username}).{" "}
        <a className="font-semibold text-blue-700 underline-offset-2 hover:underline" href={switchAccount}>
          Not you? Sign in as someone else.
        </a>
      </p>
      <p className="mt-2 text-sm text-slate-700">
        You can revoke access at any time under{" "}
        <Link className="font-semibold text-blue-700 underline-offset-2 hover:underline" href="/connected-apps">
          Connected apps
        </Link>
        . Either way, you will then be sent to <strong>{destination}</strong>.
      </p>

      <form method="post" action={action} className="mt-6">
        {Object.entries(hidden).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name="csrf_token" value={csrfToken} />
        {locationChoices.length > 1 ? (
          <fieldset className="mb-6 rounded-lg border border-slate-200 p-4">
            <legend className="px-1 text-sm font-medium text-slate-900">Share your vehicles&apos; location</legend>
            <div className="mt-1 flex flex-col gap-2">
              {locationChoices.map((precision, i) => (
                <label key={precision} className="flex items-start gap-2 text-sm text-slate-700">
                  <input type="radio" name="location" value={precision} defaultChecked={i === 0} className="mt-1" />
                  <span>
                    <strong className="text-slate-900">{LOCATION_WORDS[precision].label}</strong>:{" "}
                    {LOCATION_WORDS[precision].detail}
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
        ) : null}
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button type="submit" name="decision" value="deny" variant="secondary">
            Deny
          </Button>
          <Button type="submit" name="decision" value="allow">
            Allow
          </Button>
        </div>
      </form>
    </Card>
  );
}
