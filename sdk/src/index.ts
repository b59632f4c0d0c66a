// @wayline/sdk: a typed client for the Wayline API (docs/sdk.md).
export { apiBase, createWayline, type WaylineClient, type WaylineOptions } from "./client.js";
export { OAuthError, WaylineError, unwrap, type ErrorBody, type FieldError } from "./errors.js";
export { paginate, type Page } from "./paging.js";
export {
  authorizationUrl,
  clientCredentials,
  exchangeCode,
  refreshingTokens,
  tokenUrl,
  type Environment,
  type TokenSource,
  type Tokens,
} from "./tokens.js";
export {
  signWebhook,
  verifyWebhook,
  WebhookVerificationError,
  type WebhookEvent,
  type WebhookEventOf,
} from "./webhooks.js";
export type { components, paths, webhooks } from "./generated/openapi.js";
