import Link from "next/link";
import { Button } from "@/components/ui/button";
import { Card, EnvironmentBadge } from "@/components/ui/card";
import { APP_ABILITIES } from "./abilities";

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
        <p className="text-sm font-medium text-slate-900">{appName} will be able to:</p>
        <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-700">
          {APP_ABILITIES.map((ability) => (
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

      <form method="post" action={action} className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        {Object.entries(hidden).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name="csrf_token" value={csrfToken} />
        <Button type="submit" name="decision" value="deny" variant="secondary">
          Deny
        </Button>
        <Button type="submit" name="decision" value="allow">
          Allow
        </Button>
      </form>
    </Card>
  );
}
