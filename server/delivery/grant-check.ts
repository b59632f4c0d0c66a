// Whether a notification may still be sent to its app (docs/delivery.md#revocation): the app still
// has the account's grant, or the notification names no account, or it is one of the events about
// the access itself (AUTHORIZATIONSTATUS REVOKED, and the app events ACCESSREVOKED and
// ACCOUNTDELETED, which exist to tell the app it lost the account). A condition on the relation
// `n` (notifications) of the caller's statement, written once as a template without parameters
// that the caller's own tag builds (as server/notifications/pending-deliveries.ts): the claim and
// the send gate (claims.ts, postgres.js) and the revocation's cancel (cancel.ts, drizzle).

type Tag<T> = (strings: TemplateStringsArray) => T;

export const grantAllows = <T>(tag: Tag<T>): T => tag`(n.account_id is null
  or n.type in ('AUTHORIZATIONSTATUS', 'ACCESSREVOKED', 'ACCOUNTDELETED')
  or exists (select 1 from account_grants g where g.account_id = n.account_id and g.app_id = n.app_id and g.revoked_at is null))`;
