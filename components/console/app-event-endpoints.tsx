import type { Environment } from "@/db/schema";
import type { AppEventEndpoint } from "@/server/surfaces/console/app-event-endpoint";
import { EnvironmentBadge } from "@/components/ui/card";
import { ActionForm } from "./action-form";
import { SubmitButton, TextField } from "./fields";
import { Notice } from "./states";

const NAMES: Record<Environment, string> = { sandbox: "Sandbox", production: "Production" };

// The app page's "App events" section (docs/console.md#app-events): per environment with
// credentials, the URL that receives ACCESSREVOKED and ACCOUNTDELETED, posted to the
// set-app-event-endpoint action. An empty field removes the endpoint; the events stay in the
// app's event feed either way.
export function AppEventEndpoints({
  appId,
  csrfToken,
  environments,
  endpoints,
}: {
  appId: number;
  csrfToken: string;
  environments: Environment[];
  endpoints: Record<Environment, AppEventEndpoint | null>;
}) {
  return (
    <div className="flex flex-col gap-5" data-testid="app-events">
      <p className="text-sm text-slate-700">
        When a driver revokes this app&apos;s access (on the driver site, or your app revokes a token of the account at{" "}
        <code>/oauth/revoke</code>) Wayline sends <code>ACCESSREVOKED</code>, and when a driver deletes an account your
        app could reach, <code>ACCOUNTDELETED</code>. Each is a POST of four fields (<code>_type</code>,{" "}
        <code>_timestamp</code>, <code>accountId</code>, <code>clientId</code>) signed like every webhook, with the
        secret above, and retried like one. The events are in the app&apos;s event feed too. The URL must be https and
        reachable from the internet; clear the field and save to stop sending them.
      </p>
      {environments.map((environment) => {
        const current = endpoints[environment];
        const name = NAMES[environment];
        return (
          <ActionForm
            key={`${environment}:${current?.url ?? ""}`}
            action="set-app-event-endpoint"
            csrfToken={csrfToken}
            label={`${name} app-event endpoint`}
            className="flex flex-col gap-3"
          >
            <input type="hidden" name="appId" value={appId} />
            <input type="hidden" name="environment" value={environment} />
            <h3 className="flex items-center gap-2 font-semibold">
              <EnvironmentBadge environment={environment} /> {name}
            </h3>
            <p className="text-sm text-slate-700" data-testid={`app-events-${environment}`}>
              {current ? (
                <>
                  Sent to <code className="break-all">{current.url}</code>
                  {current.active ? "." : ", deactivated."}
                </>
              ) : (
                "No endpoint: the events are in the app's event feed only."
              )}
            </p>
            {current && !current.active ? (
              <Notice tone="warn">
                Deactivated{current.deactivationReason ? `: ${current.deactivationReason}` : ""}. Saving the URL again
                switches it back on.
              </Notice>
            ) : null}
            <TextField
              name="url"
              id={`f-app-event-url-${environment}`}
              label={`${name} endpoint URL`}
              type="url"
              inputMode="url"
              autoComplete="off"
              placeholder="https://"
              defaultValue={current?.url ?? ""}
              hint="Leave empty to send no app events."
            />
            <div>
              <SubmitButton variant="secondary">Save {environment} endpoint</SubmitButton>
            </div>
          </ActionForm>
        );
      })}
    </div>
  );
}
