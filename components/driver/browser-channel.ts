// The browser channel's first step, taken only when the driver turns a browser channel on: the
// browser's permission to show notifications. Asked at that moment and never on page load, so the
// prompt comes with the switch that explains it.

export async function askNotificationPermission(): Promise<{ ok: boolean; message?: string }> {
  if (typeof window === "undefined" || !("Notification" in window))
    return { ok: false, message: "This browser cannot show notifications." };
  if (Notification.permission === "granted") return { ok: true };
  if (Notification.permission === "denied")
    return {
      ok: false,
      message: "Notifications are blocked for this site: allow them in the browser's site settings.",
    };
  const answer = await Notification.requestPermission();
  return answer === "granted"
    ? { ok: true }
    : { ok: false, message: "The browser was not allowed to show notifications, so this channel stays off." };
}
