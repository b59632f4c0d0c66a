"use client";

import { SelectField, SubmitButton, TextArea, TextField } from "./fields";

type Values = { name: string; ownerName: string | null; redirectUris: string[]; isPublic: boolean };

// The fields an app has (create and edit share them): redirect URIs one per line, checked on the
// server against the registration rules (docs/oauth.md#authorization-page).
export function AppForm({ values, submitLabel }: { values?: Values; submitLabel: string }) {
  return (
    <>
      <TextField name="name" label="App name" required maxLength={80} defaultValue={values?.name} />
      <TextField
        name="ownerName"
        label="Publisher (shown on the consent screen)"
        maxLength={80}
        defaultValue={values?.ownerName ?? ""}
      />
      <TextArea
        name="redirectUris"
        label="Redirect URIs (one per line)"
        rows={3}
        defaultValue={values?.redirectUris.join("\n")}
        hint="https URIs, app schemes (myapp://callback) and loopback http (http://127.0.0.1:8080/cb) work in both environments; other http URIs only in the sandbox. A URI with a fragment (http://127.0.0.1:8080/#/authorized) receives tokens only (response_type=token)."
      />
      <SelectField
        name="clientType"
        label="Client type"
        defaultValue={values?.isPublic ? "public" : "confidential"}
        hint="Public clients (mobile, single-page apps) cannot keep a secret: they authenticate by client id alone and must use PKCE."
      >
        <option value="confidential">Confidential (server-side, keeps a secret)</option>
        <option value="public">Public (mobile or browser app, PKCE)</option>
      </SelectField>
      <div>
        <SubmitButton>{submitLabel}</SubmitButton>
      </div>
    </>
  );
}
