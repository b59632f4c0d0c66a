import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthPanel } from "@/components/auth/auth-panel";
import { ConsentCard } from "@/components/oauth/consent-card";
import { Card, EnvironmentBadge, NarrowPage } from "@/components/ui/card";
import { getDriverSession } from "@/server/surfaces/driver/session";
import { consentToken, locationChoices } from "@/server/surfaces/authorize/consent-token";
import { continuePath, DECISION_PATH, resumePath } from "@/server/surfaces/authorize/paths";
import { checkAuthorizationRequest, toSearchRecord } from "@/server/oauth/authorize/request";
import { describeDestination } from "@/server/surfaces/authorize/destination";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Authorize an app", robots: { index: false } };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

// /oauth/authorize/continue — where the authorization endpoint sends a driver who has to sign in
// (or register) or decide. The request in the query is checked again: this page trusts nothing
// it is given.
export default async function ContinueAuthorizationPage({ searchParams }: Props) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(await searchParams))
    for (const v of [value ?? []].flat()) query.append(name, v);

  const check = await checkAuthorizationRequest(query, null);
  if (check.kind === "invalid") {
    return (
      <NarrowPage>
        <Card>
          <p className="text-sm font-semibold uppercase tracking-wide text-blue-700">Wayline</p>
          <h1 className="mt-3 text-2xl font-bold tracking-tight">{check.title}</h1>
          <p className="mt-3 text-slate-700">{check.message}</p>
          <p className="mt-3 text-slate-700">
            You were not sent anywhere. Go back to the app you came from and try again.
          </p>
        </Card>
      </NarrowPage>
    );
  }
  if (check.kind === "error") redirect(check.location);

  const { params, client } = check.authorization;
  const session = await getDriverSession();
  const driver = session?.environment === client.environment ? session : null;
  const environmentName = client.environment === "sandbox" ? "sandbox" : "production";

  if (!driver || params.prompt.includes("login")) {
    return (
      <NarrowPage>
        <Card>
          <div className="flex items-center justify-between gap-3">
            <p className="text-sm font-semibold uppercase tracking-wide text-blue-700">Wayline</p>
            <EnvironmentBadge environment={client.environment} />
          </div>
          <h1 className="mt-3 text-2xl font-bold tracking-tight">Sign in to continue to {client.appName}</h1>
          <p className="mt-2 text-sm text-slate-700">
            Use your Wayline {environmentName} account, or create one. {client.appName} will then ask for access to it.
          </p>
          {session && session.environment !== client.environment ? (
            <p className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
              You are signed in to {session.environment} as {session.username}. {client.appName} uses the{" "}
              {environmentName}, which has its own accounts.
            </p>
          ) : null}
          <div className="mt-6">
            <AuthPanel
              environment={client.environment}
              continueTo={resumePath(params, client.environment)}
              loginHint={params.loginHint ?? undefined}
            />
          </div>
        </Card>
      </NarrowPage>
    );
  }

  // The form's token is signed over exactly these fields: the decision answers this request only.
  const hidden = toSearchRecord(params);
  return (
    <NarrowPage>
      <ConsentCard
        appName={client.appName}
        ownerName={client.ownerName}
        environment={client.environment}
        driver={driver}
        destination={describeDestination(params.redirectUri)}
        implicit={params.responseType === "token"}
        action={DECISION_PATH}
        hidden={hidden}
        csrfToken={consentToken(driver, hidden)}
        asked={check.authorization.asked}
        locationChoices={locationChoices(params.scope)}
        switchAccount={continuePath({ ...params, prompt: [...params.prompt.filter((p) => p !== "login"), "login"] })}
      />
    </NarrowPage>
  );
}
