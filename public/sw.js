// The driver site's service worker (docs/browser-notifications.md): it shows the browser notifications
// of the driver's alerts, delivered by Web Push, and opens the alert's page when one is clicked. It
// caches nothing and serves no request. The message is {"title", "body", "url"} (server/alerts/push/).

const here = self.location.origin;

// Only a page of this site is opened: a message naming another origin opens the site's start page.
function pageOf(url) {
  try {
    const target = new URL(typeof url === "string" ? url : "/", here);
    return target.origin === here ? target.href : `${here}/`;
  } catch {
    return `${here}/`;
  }
}

function messageOf(data) {
  if (!data) return {};
  try {
    const parsed = data.json();
    return parsed && typeof parsed === "object" ? parsed : {};
  } catch {
    return { body: data.text() };
  }
}

self.addEventListener("push", (event) => {
  const message = messageOf(event.data);
  const title = typeof message.title === "string" && message.title ? message.title : "Wayline";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof message.body === "string" ? message.body : "",
      icon: "/icon-192.png",
      data: { url: pageOf(message.url) },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = pageOf(event.notification.data && event.notification.data.url);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => w.url === url);
      return open ? open.focus() : self.clients.openWindow(url);
    }),
  );
});

// The push service replaced the subscription (expiry, key refresh): the new one is stored for the
// signed-in driver, the old one forgotten. Without a session both answer 401 and the switch shows off.
self.addEventListener("pushsubscriptionchange", (event) => {
  const post = (path, body) =>
    fetch(path, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  event.waitUntil(
    (async () => {
      if (event.oldSubscription) await post("/me/push/unsubscribe", { endpoint: event.oldSubscription.endpoint });
      if (event.newSubscription) await post("/me/push/subscribe", event.newSubscription.toJSON());
    })(),
  );
});
