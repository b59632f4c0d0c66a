// What an app the driver allows can do, in the driver's words. No scopes exist yet (docs/oauth.md):
// every app gets the same, so the consent screen and the connected-apps page read one list, and
// what the driver is shown afterwards is what they agreed to.

export const APP_ABILITIES = [
  "see your account details: name, e-mail, phone, zip code and time zone",
  "see and manage your vehicles, with their positions, trips and device data",
  "be notified of your vehicles' events",
] as const;

export const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
