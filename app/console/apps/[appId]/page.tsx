import type { Metadata } from "next";
import { ActionForm } from "@/components/console/action-form";
import { AppEventEndpoints } from "@/components/console/app-event-endpoints";
import { AppForm } from "@/components/console/app-form";
import { CopyValue } from "@/components/console/copy-value";
import { CheckField, SubmitButton } from "@/components/console/fields";
import { InboxUrl } from "@/components/console/inbox-url";
import { LocalTime } from "@/components/console/local-time";
import { Notice, Section } from "@/components/console/states";
import { EnvironmentBadge } from "@/components/ui/card";
import { redirectUriProblem } from "@/server/apps/redirect-uris";
import { appEventEndpoints } from "@/server/surfaces/console/app-event-endpoint";
import { appInbox } from "@/server/surfaces/console/inbox";
import { formatDateTime } from "@/common/http/datetime";
import { appSigningSecrets } from "@/server/surfaces/console/signing";
import { consoleAppPage, pageId } from "@/server/surfaces/console/pages";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "App" };

type Props = { params: Promise<{ appId: string }> };

// /console/apps/{id} — settings, credentials per environment, the obligations that unlock
// production, the webhook signing secret, and the app-event endpoints.
export default async function AppPage({ params }: Props) {
  const appId = pageId((await params).appId);
  const {
    session,
    csrfToken,
    overview: { app, sandbox, production },
  } = await consoleAppPage(appId, `/console/apps/${appId}`);
  const signing = await appSigningSecrets(session.partnerUserId, appId);
  const inbox = await appInbox(session.partnerUserId, appId);
  const endpoints = await appEventEndpoints(session.partnerUserId, appId);
  const productionProblems = app.redirectUris
    .map((uri) => ({ uri, problem: redirectUriProblem(uri, "production") }))
    .filter((p) => p.problem);

  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">{app.name}</h1>

      <Section title="Credentials" id="credentials">
        <div className="flex flex-col gap-6">
          {sandbox ? (
            <div className="flex flex-col gap-3" data-testid="sandbox-credentials">
              <h3 className="flex items-center gap-2 font-semibold">
                <EnvironmentBadge environment="sandbox" /> Sandbox
              </h3>
              <dl className="flex flex-col gap-2">
                <CopyValue label="client_id" value={sandbox.clientId} />
              </dl>
              <p className="text-sm text-slate-700">
                Token endpoint: <code>/sandbox/oauth/token</code> · API base: <code>/sandbox/api</code>. The client
                secret was shown once; rotate it to get a new one (the old one stops working at once).
              </p>
              <ActionForm
                action="rotate-secret"
                csrfToken={csrfToken}
                label="Rotate the sandbox client secret"
                confirm="Rotate the sandbox secret? The current one stops working immediately."
                revealTitle="New sandbox client secret. Copy it now: it is shown only once."
              >
                <input type="hidden" name="appId" value={app.id} />
                <input type="hidden" name="environment" value="sandbox" />
                <SubmitButton variant="secondary">Rotate sandbox secret</SubmitButton>
              </ActionForm>
            </div>
          ) : null}

          <div className="flex flex-col gap-3" data-testid="production-credentials">
            <h3 className="flex items-center gap-2 font-semibold">
              <EnvironmentBadge environment="production" /> Production
            </h3>
            {production ? (
              <>
                <dl className="flex flex-col gap-2">
                  <CopyValue label="client_id" value={production.clientId} />
                </dl>
                <p className="text-sm text-slate-700">
                  Obligations confirmed{" "}
                  {app.obligationsConfirmedAt ? (
                    <LocalTime
                      iso={app.obligationsConfirmedAt.toISOString()}
                      wire={formatDateTime(app.obligationsConfirmedAt)}
                    />
                  ) : (
                    "by the operator"
                  )}
                  . Token endpoint: <code>/oauth/token</code> · API base: <code>/v1/api</code>.
                </p>
                <ActionForm
                  action="rotate-secret"
                  csrfToken={csrfToken}
                  label="Rotate the production client secret"
                  confirm="Rotate the production secret? The current one stops working immediately."
                  revealTitle="New production client secret. Copy it now: it is shown only once."
                >
                  <input type="hidden" name="appId" value={app.id} />
                  <input type="hidden" name="environment" value="production" />
                  <SubmitButton variant="secondary">Rotate production secret</SubmitButton>
                </ActionForm>
              </>
            ) : (
              <ActionForm
                action="confirm-obligations"
                csrfToken={csrfToken}
                label="Confirm the partner obligations"
                className="flex flex-col gap-3"
                revealTitle="Production credentials issued. Copy the client secret now: it is shown only once."
              >
                <input type="hidden" name="appId" value={app.id} />
                <p className="text-sm text-slate-700">
                  Production credentials are issued once you confirm that, for every account your app creates, you tell
                  the driver:
                </p>
                <CheckField
                  name="credentials"
                  label="their Wayline credentials: the username and password passed when creating the account;"
                />
                <CheckField
                  name="driverSite"
                  label="a link to the Wayline driver site, where they can reach their account;"
                />
                <CheckField
                  name="dataStatement"
                  label="that the connected-car data is collected on their behalf by Wayline and made available to this app."
                />
                <div>
                  <SubmitButton>Confirm and get production credentials</SubmitButton>
                </div>
              </ActionForm>
            )}
          </div>
        </div>
      </Section>

      <Section title="Webhook signing secret" id="signing-secret">
        <div className="flex flex-col gap-3" data-testid="signing-secret">
          <p className="text-sm text-slate-700">
            Notifications sent by HTTP POST carry Standard Webhooks headers (<code>webhook-id</code>,{" "}
            <code>webhook-timestamp</code>, <code>webhook-signature</code>), signed with this app&apos;s secret (one
            secret for sandbox and production). After a rotation the previous secret keeps signing for 24 hours, so each
            delivery carries both signatures until your receiver knows the new one.
          </p>
          <ul className="flex flex-col gap-1 text-sm" aria-label="Signing secrets in use">
            {signing.map((s) => (
              <li key={s.id}>
                secret {s.id} · created <LocalTime iso={s.createdAt.toISOString()} wire={formatDateTime(s.createdAt)} />{" "}
                ·{" "}
                {s.expiresAt ? (
                  <>
                    signs until <LocalTime iso={s.expiresAt.toISOString()} wire={formatDateTime(s.expiresAt)} />
                  </>
                ) : (
                  "current"
                )}
              </li>
            ))}
          </ul>
          <div className="flex flex-wrap gap-3">
            <ActionForm
              action="reveal-signing-secret"
              csrfToken={csrfToken}
              label="Reveal the signing secret"
              revealTitle="The current signing secret. Keep it on your receiver only."
            >
              <input type="hidden" name="appId" value={app.id} />
              <SubmitButton variant="secondary">Reveal</SubmitButton>
            </ActionForm>
            <ActionForm
              action="rotate-signing-secret"
              csrfToken={csrfToken}
              label="Rotate the signing secret"
              confirm="Rotate the signing secret? The current one keeps signing for 24 hours."
              revealTitle="New signing secret. The previous one keeps signing until the time shown."
            >
              <input type="hidden" name="appId" value={app.id} />
              <SubmitButton variant="secondary">Rotate signing secret</SubmitButton>
            </ActionForm>
          </div>
        </div>
      </Section>

      <Section title="App events" id="app-events">
        <AppEventEndpoints
          appId={app.id}
          csrfToken={csrfToken}
          environments={[...(sandbox ? (["sandbox"] as const) : []), ...(production ? (["production"] as const) : [])]}
          endpoints={endpoints}
        />
      </Section>

      <Section title="Sandbox inbox" id="sandbox-inbox">
        <InboxUrl appId={app.id} url={inbox.url} />
      </Section>

      <Section title="Settings" id="settings">
        {productionProblems.length > 0 ? (
          <div className="mb-4">
            <Notice tone="warn">
              These redirect URIs work in the sandbox only: {productionProblems.map((p) => p.uri).join(", ")} (plain
              http outside loopback).
            </Notice>
          </div>
        ) : null}
        <ActionForm action="update-app" csrfToken={csrfToken} label="App settings" className="flex flex-col gap-4">
          <input type="hidden" name="appId" value={app.id} />
          <AppForm values={app} submitLabel="Save settings" />
        </ActionForm>
      </Section>
    </>
  );
}
