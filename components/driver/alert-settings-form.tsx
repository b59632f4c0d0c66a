"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { SPEED_UNITS, type AlertChannel, type AlertKind, type SpeedUnit } from "@/common/alerts/kinds";
import type { AlertSettingsView, KindSetting } from "@/server/alerts/service";
import { askNotificationPermission } from "./browser-channel";
import { FormMessage } from "./form-message";
import { sendJson } from "./send";

// The alert settings (POST /me/alerts/settings): per kind the channels and its threshold, the quiet
// hours; and a test alert per channel (POST /me/alerts/test), sent by the delivery worker like a real
// one. Turning a browser channel on asks the browser's permission first.

type Row = Pick<KindSetting, "kind" | "email" | "browser" | "threshold" | "unit">;

export function AlertSettingsForm({ settings }: { settings: AlertSettingsView }) {
  const router = useRouter();
  const [rows, setRows] = useState<Row[]>(settings.kinds);
  const [quiet, setQuiet] = useState(settings.quietHours !== null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [testMessage, setTestMessage] = useState<{ error?: string; success?: string }>({});

  const update = (kind: AlertKind, change: Partial<Row>) =>
    setRows((all) => all.map((r) => (r.kind === kind ? { ...r, ...change } : r)));

  async function toggleBrowser(kind: AlertKind, on: boolean) {
    if (on) {
      const permission = await askNotificationPermission();
      if (!permission.ok) {
        setError(permission.message ?? null);
        return;
      }
    }
    update(kind, { browser: on });
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setSaved(null);
    const sent = await sendJson<{ settings: AlertSettingsView }>("POST", "/me/alerts/settings", {
      preferences: rows.map((r) => ({
        kind: r.kind,
        email: r.email,
        browser: r.browser,
        threshold: r.threshold,
        unit: r.unit,
      })),
      quietHours: quiet ? { from: String(form.get("quietFrom")), to: String(form.get("quietTo")) } : null,
      ...(settings.timeZone ? {} : { browserTimeZone: Intl.DateTimeFormat().resolvedOptions().timeZone }),
    });
    setPending(false);
    if (sent.ok) {
      setFields({});
      setError(null);
      setSaved("Your alert settings are saved.");
      router.refresh();
      return;
    }
    setFields(sent.fields);
    setError(sent.message);
  }

  async function sendTest(channel: AlertChannel) {
    setTestMessage({});
    const sent = await sendJson<{ alertId: number }>("POST", "/me/alerts/test", { channel });
    setTestMessage(
      sent.ok
        ? { success: "A test alert is on its way. It appears on the alerts page with its outcome." }
        : { error: sent.message },
    );
  }

  return (
    <div className="flex flex-col gap-6">
      <form onSubmit={submit} noValidate aria-label="Alert settings" className="flex flex-col gap-4">
        <FormMessage error={error} success={saved} />
        {settings.kinds.map((k) => {
          const row = rows.find((r) => r.kind === k.kind)!;
          const id = `alert-${k.kind}`;
          const thresholdError = fields[`preferences.${k.kind}.threshold`];
          return (
            <fieldset key={k.kind} className="rounded-lg border border-slate-200 p-3" aria-describedby={`${id}-hint`}>
              <legend className="px-1 font-semibold">{k.label}</legend>
              <p id={`${id}-hint`} className="text-sm text-slate-700">
                {k.hint}
                {k.evaluated ? null : " (Saved now; this server does not yet send this kind.)"}
              </p>
              <div className="mt-2 flex flex-wrap items-center gap-x-6 gap-y-2">
                <label className="inline-flex min-h-11 items-center gap-2">
                  <input
                    type="checkbox"
                    name={`${k.kind}.email`}
                    checked={row.email}
                    onChange={(e) => update(k.kind, { email: e.target.checked })}
                    className="h-5 w-5"
                  />
                  E-mail
                </label>
                <label className="inline-flex min-h-11 items-center gap-2">
                  <input
                    type="checkbox"
                    name={`${k.kind}.browser`}
                    checked={row.browser}
                    onChange={(e) => void toggleBrowser(k.kind, e.target.checked)}
                    className="h-5 w-5"
                  />
                  Browser notification
                </label>
                {k.threshold !== null ? (
                  <span className="inline-flex flex-wrap items-center gap-2">
                    <label htmlFor={`${id}-threshold`} className="text-sm font-medium">
                      {k.unit ? "Speed limit" : "Offline for more than (minutes)"}
                    </label>
                    <input
                      id={`${id}-threshold`}
                      name={`${k.kind}.threshold`}
                      type="number"
                      inputMode="decimal"
                      value={row.threshold ?? ""}
                      onChange={(e) =>
                        update(k.kind, { threshold: e.target.value === "" ? null : Number(e.target.value) })
                      }
                      aria-invalid={thresholdError ? true : undefined}
                      aria-describedby={thresholdError ? `${id}-threshold-error` : undefined}
                      className="min-h-11 w-28 rounded-lg border border-slate-300 px-3"
                    />
                    {k.unit ? (
                      <select
                        aria-label="Speed unit"
                        name={`${k.kind}.unit`}
                        value={row.unit ?? "mph"}
                        onChange={(e) => update(k.kind, { unit: e.target.value as SpeedUnit })}
                        className="min-h-11 rounded-lg border border-slate-300 px-2"
                      >
                        {SPEED_UNITS.map((u) => (
                          <option key={u} value={u}>
                            {u}
                          </option>
                        ))}
                      </select>
                    ) : null}
                    {thresholdError ? (
                      <span id={`${id}-threshold-error`} className="text-sm text-red-700">
                        {thresholdError}
                      </span>
                    ) : null}
                  </span>
                ) : null}
              </div>
            </fieldset>
          );
        })}
        <fieldset className="rounded-lg border border-slate-200 p-3" aria-describedby="quiet-hint">
          <legend className="px-1 font-semibold">Quiet hours</legend>
          <p id="quiet-hint" className="text-sm text-slate-700">
            Alerts in these hours are listed on the alerts page but not sent. Times are in{" "}
            {settings.timeZone ?? "your browser's time zone, which is saved on your account"}.
          </p>
          <label className="mt-2 inline-flex min-h-11 items-center gap-2">
            <input type="checkbox" checked={quiet} onChange={(e) => setQuiet(e.target.checked)} className="h-5 w-5" />
            Keep quiet hours
          </label>
          <div className="flex flex-wrap gap-4">
            <label className="flex flex-col gap-1 text-sm font-medium">
              From
              <input
                type="time"
                name="quietFrom"
                defaultValue={settings.quietHours?.from ?? "22:00"}
                disabled={!quiet}
                aria-invalid={fields["quietHours.from"] ? true : undefined}
                className="min-h-11 rounded-lg border border-slate-300 px-3"
              />
            </label>
            <label className="flex flex-col gap-1 text-sm font-medium">
              To
              <input
                type="time"
                name="quietTo"
                defaultValue={settings.quietHours?.to ?? "07:00"}
                disabled={!quiet}
                aria-invalid={fields["quietHours.to"] ? true : undefined}
                className="min-h-11 rounded-lg border border-slate-300 px-3"
              />
            </label>
          </div>
          {fields["quietHours.from"] || fields["quietHours.to"] ? (
            <p className="text-sm text-red-700">{fields["quietHours.from"] ?? fields["quietHours.to"]}</p>
          ) : null}
        </fieldset>
        <div>
          <Button type="submit" disabled={pending}>
            {pending ? "Saving…" : "Save alert settings"}
          </Button>
        </div>
      </form>
      <section aria-labelledby="test-alerts" className="flex flex-col gap-3">
        <h2 id="test-alerts" className="text-lg font-semibold">
          Send a test alert
        </h2>
        <p className="text-sm text-slate-700">
          E-mails go to {settings.email ?? "your account's address (add one on the account page)"}.
        </p>
        <FormMessage error={testMessage.error} success={testMessage.success} />
        <div className="flex flex-wrap gap-3">
          <Button type="button" variant="secondary" onClick={() => void sendTest("email")}>
            Send a test e-mail
          </Button>
          <Button type="button" variant="secondary" onClick={() => void sendTest("browser")}>
            Send a test browser notification
          </Button>
        </div>
      </section>
    </div>
  );
}
