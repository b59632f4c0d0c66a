import { accountOperations as ops } from "@/server/accounts/operations";
import { createAccount, listVisibleAccounts } from "@/server/accounts/service";
import { preflight } from "@/server/http/cors";
import { list, one } from "@/server/http/results";
import { otherMethods } from "@/server/http/method-not-allowed";
import { withApi } from "@/server/http/with-api";

// GET /account/ — the accounts available to the caller
export const GET = withApi(ops.list, async ({ principal, query }) => {
  const page = { limit: query.searchLimit, offset: query.searchOffset };
  const { items, total } = await listVisibleAccounts(principal, page, query.sortOrder ?? "asc");
  return list(items, total, page);
});

// POST /account/ — create a driver account (client-credentials token)
export const POST = withApi(ops.create, async ({ principal, body }) => one(await createAccount(principal, body), 1));

export const OPTIONS = preflight;

// Any other method: 405 with Allow naming the methods above
export const { PUT, PATCH, DELETE } = otherMethods(ops.list, ops.create);
