// OAuth scopes and what a driver granted an app (docs/oauth.md#scopes). An app asks with
// `scope`, space-separated: one of location:precise, location:approximate, location:none, plus
// `data` and `account`. A request without any of these names (none at all, or only names of its
// own, as some 2014 clients send) asks for everything with precise location: those clients work
// as they always did. The driver grants location at the precision asked or lower.

export type LocationPrecision = "precise" | "approximate" | "none";

/** What an app may see of one account, as the driver granted it (account_grants). */
export type GrantScope = { location: LocationPrecision; data: boolean; account: boolean };

export const FULL_GRANT: GrantScope = { location: "precise", data: true, account: true };

/** Most to least precise. */
export const PRECISIONS: readonly LocationPrecision[] = ["precise", "approximate", "none"];

export const SCOPES_SUPPORTED = ["location:precise", "location:approximate", "location:none", "data", "account"];

const LOCATION_SCOPE = /^location:(precise|approximate|none)$/;

/** The scope of an authorization request, or why it cannot be granted (RFC 6749 invalid_scope). */
export function parseRequestedScope(scope: string): { ok: true; asked: GrantScope } | { ok: false; problem: string } {
  const names = scope.split(" ").filter(Boolean);
  const known = names.filter((n) => SCOPES_SUPPORTED.includes(n));
  if (known.length === 0) return { ok: true, asked: FULL_GRANT };
  const locations = known.filter((n) => LOCATION_SCOPE.test(n));
  if (new Set(locations).size > 1)
    return { ok: false, problem: `Ask for one location precision at most (the request has ${locations.join(", ")}).` };
  const location = (locations[0]?.slice("location:".length) ?? "none") as LocationPrecision;
  return { ok: true, asked: { location, data: known.includes("data"), account: known.includes("account") } };
}

/** The scope string of a grant, as the token answer says it (`scope`). */
export function formatScope(grant: GrantScope): string {
  return [`location:${grant.location}`, ...(grant.data ? ["data"] : []), ...(grant.account ? ["account"] : [])].join(
    " ",
  );
}

/** The precisions the driver may grant when `asked` is the most the app asked for. */
export function precisionsUpTo(asked: LocationPrecision): LocationPrecision[] {
  return PRECISIONS.slice(PRECISIONS.indexOf(asked));
}

export const isFullGrant = (g: GrantScope) => g.location === "precise" && g.data && g.account;
