import { NextResponse, type NextRequest } from "next/server";

// The authorization page is documented as /OAuth/authorize (docs/oauth.md#authorization-page) and also answers at
// /oauth/authorize (docs/api.md#environments-and-base-paths). One route serves both: any other spelling of the OAuth
// endpoints' paths is rewritten to the lower-case one. (Two folders differing only by case would
// break clones on case-insensitive file systems.)
const OAUTH_PATH = /^(\/sandbox)?\/oauth\/(authorize|token|revoke)\/?$/;

export function proxy(request: NextRequest) {
  const lower = request.nextUrl.pathname.toLowerCase();
  if (!OAUTH_PATH.test(lower)) return NextResponse.next();
  const url = request.nextUrl.clone();
  url.pathname = lower;
  return NextResponse.rewrite(url);
}

// Only paths whose OAuth segment is not already lower case reach the proxy: the lower-case
// endpoints (the token endpoint above all) pay nothing for it.
export const config = {
  matcher: ["/((?!oauth/)[oO][aA][uU][tT][hH]/.*)", "/sandbox/((?!oauth/)[oO][aA][uU][tT][hH]/.*)"],
};
