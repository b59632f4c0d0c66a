import type { GrantScope, LocationPrecision } from "@/common/oauth/grant-scope";

// What an app can do with a grant, in the driver's words (docs/oauth.md#scopes). The consent
// screen lists what the app asks for and the connected-apps page what the driver granted, from
// the same sentences, so what the driver is shown afterwards is what they agreed to.

export const LOCATION_WORDS: Record<LocationPrecision, { label: string; detail: string }> = {
  precise: { label: "Precise", detail: "exact positions, trips with their routes" },
  approximate: {
    label: "Approximate",
    detail: "positions rounded to about 1 km; trips with start, end and mileage, no route",
  },
  none: { label: "None", detail: "no positions at all" },
};

export function appAbilities(grant: GrantScope): string[] {
  const location =
    grant.location === "precise" ? ["positions"] : grant.location === "approximate" ? ["positions to about 1 km"] : [];
  const parts = [...location, ...(grant.data ? ["trips", "device data"] : [])];
  const listed = parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}` : (parts[0] ?? "");
  return [
    ...(grant.account ? ["see your account details: name, e-mail, phone, zip code and time zone"] : []),
    `see and manage your vehicles${listed ? `, with their ${listed}` : ""}`,
    ...(grant.data || grant.location !== "none" ? ["be notified of your vehicles' events"] : []),
  ];
}

export const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
