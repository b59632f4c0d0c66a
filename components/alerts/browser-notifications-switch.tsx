"use client";

import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/driver/form-message";
import { sendJson } from "@/components/driver/send";

// The "browser notifications" channel for this browser (docs/browser-notifications.md): turning it on
// asks the browser's permission (only then, never on page load), registers the service worker,
// subscribes with the site's VAPID public key and stores the subscription; turning it off forgets it
// on both sides. The switch reflects this browser only: each browser of the driver has its own.

export type BrowserNotificationsSwitchProps = {
  /** The VAPID public key (base64url), from GET /me/push or the page's loader (pushSettings). */
  vapidPublicKey: string;
  /** Told when this browser's channel turns on or off (an alerts page may enable its browser column). */
  onChange?: (on: boolean) => void;
  /** Offer "Send a test notification" while on (default true). */
  testButton?: boolean;
};

type State = "checking" | "unsupported" | "off" | "on" | "working";

const SERVICE_WORKER = "/sw.js";

function supported(): boolean {
  return (
    typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window
  );
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function sameKey(subscription: PushSubscription, key: Uint8Array): boolean {
  const own = subscription.options.applicationServerKey;
  if (!own) return false;
  const bytes = new Uint8Array(own);
  return bytes.length === key.length && bytes.every((b, i) => b === key[i]);
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration(SERVICE_WORKER);
  return (await registration?.pushManager.getSubscription()) ?? null;
}

export function BrowserNotificationsSwitch({
  vapidPublicKey,
  onChange,
  testButton = true,
}: BrowserNotificationsSwitchProps) {
  const [state, setState] = useState<State>("checking");
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    const found: Promise<State> = supported()
      ? currentSubscription().then(
          (subscription) => (subscription && Notification.permission === "granted" ? "on" : "off"),
          () => "off",
        )
      : Promise.resolve("unsupported");
    void found.then((checked) => live && setState(checked));
    return () => {
      live = false;
    };
  }, []);

  const settle = (on: boolean) => {
    setState(on ? "on" : "off");
    onChange?.(on);
  };

  async function turnOn() {
    setState("working");
    setError(null);
    setSuccess(null);
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") {
        setError(
          permission === "denied"
            ? "Notifications are blocked for this site: allow them in the browser's site settings, then try again."
            : "Notifications were not allowed.",
        );
        return settle(false);
      }
      await navigator.serviceWorker.register(SERVICE_WORKER, { scope: "/" });
      const registration = await navigator.serviceWorker.ready;
      const key = keyBytes(vapidPublicKey);
      const subscribeAnew = () =>
        registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
      let subscription = await registration.pushManager.getSubscription();
      // Made with another key (the site's keys were replaced): push services would refuse our messages.
      if (subscription && !sameKey(subscription, key)) {
        await subscription.unsubscribe();
        subscription = null;
      }
      subscription ??= await subscribeAnew();
      let sent = await sendJson("POST", "/me/push/subscribe", subscription.toJSON());
      if (!sent.ok && sent.status === 409) {
        // Another driver turned notifications on in this browser profile: this account gets a new subscription.
        await subscription.unsubscribe();
        subscription = await subscribeAnew();
        sent = await sendJson("POST", "/me/push/subscribe", subscription.toJSON());
      }
      if (!sent.ok) {
        await subscription.unsubscribe().catch(() => false);
        setError(sent.message);
        return settle(false);
      }
      settle(true);
    } catch (cause) {
      setError(`This browser could not turn notifications on (${(cause as Error).message}).`);
      settle(false);
    }
  }

  async function turnOff() {
    setState("working");
    setError(null);
    setSuccess(null);
    try {
      const subscription = await currentSubscription();
      if (subscription) {
        const sent = await sendJson("POST", "/me/push/unsubscribe", { endpoint: subscription.endpoint });
        // 404: the site had forgotten it already (its push service had said it was gone).
        if (!sent.ok && sent.status !== 404) {
          setError(sent.message);
          return settle(true);
        }
        await subscription.unsubscribe();
      }
      settle(false);
    } catch (cause) {
      setError(`This browser could not turn notifications off (${(cause as Error).message}).`);
      setState("on");
    }
  }

  async function sendTest() {
    setError(null);
    setSuccess(null);
    const sent = await sendJson<{ sent: number; removed: number; failures: string[] }>("POST", "/me/push/test");
    if (!sent.ok) return setError(sent.message);
    const { sent: count, failures } = sent.data;
    if (failures.length > 0) setError(`Not delivered to ${failures.length} browser(s): ${failures.join("; ")}`);
    else setSuccess(count === 1 ? "Sent to 1 browser." : `Sent to ${count} browsers.`);
  }

  if (state === "unsupported")
    return <p className="text-sm text-slate-700">This browser cannot show notifications from web sites.</p>;
  const on = state === "on";
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-3">
        <Button
          type="button"
          variant="secondary"
          role="switch"
          aria-checked={on}
          aria-label="Browser notifications"
          disabled={state === "checking" || state === "working"}
          onClick={on ? turnOff : turnOn}
        >
          {on ? "Browser notifications: on" : "Browser notifications: off"}
        </Button>
        {on && testButton ? (
          <Button type="button" variant="secondary" onClick={sendTest}>
            Send a test notification
          </Button>
        ) : null}
      </div>
      <FormMessage error={error} success={success} />
    </div>
  );
}
