import type { GrantScope, LocationPrecision } from "@/server/oauth/grant-scope";

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
  return [
    ...(grant.account ? ["see your account details: name, e-mail, phone, zip code and time zone"] : []),
    "see and manage your vehicles",
    ...(grant.data
      ? ["read your vehicles' data (mileage, fuel, battery, trouble codes) and be notified of their events"]
      : []),
    grant.location === "none"
      ? "not see where your vehicles are"
      : `see where your vehicles are: ${LOCATION_WORDS[grant.location].detail}`,
  ];
}

export const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
