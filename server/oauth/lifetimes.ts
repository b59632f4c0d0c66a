// How long what the OAuth server issues lives (docs/oauth.md).

/** Access tokens, from every grant (the documented 86400). */
export const ACCESS_TOKEN_TTL_SECONDS = 86400;

/** Authorization codes: single use, 10 minutes. */
export const CODE_TTL_SECONDS = 600;

/** Refresh tokens stay valid this long after their access token expires. */
export const REFRESH_TOKEN_GRACE_MS = 30 * 24 * 3600 * 1000;
