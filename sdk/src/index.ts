// @wayline/sdk: a typed client for the Wayline API (docs/sdk.md).
export { apiBase, createWayline, type WaylineClient, type WaylineOptions } from "./client";
export { OAuthError, WaylineError, unwrap, type ErrorBody, type FieldError } from "./errors";
export { paginate, type Page } from "./paging";
export {
  authorizationUrl,
  clientCredentials,
  exchangeCode,
  refreshingTokens,
  tokenUrl,
  type Environment,
  type TokenSource,
  type Tokens,
} from "./tokens";
export {
  signWebhook,
  verifyWebhook,
  WebhookVerificationError,
  type WebhookEvent,
  type WebhookEventOf,
} from "./webhooks";
export type { components, paths, webhooks } from "./generated/openapi";
