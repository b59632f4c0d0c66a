import { accountOperations as ops } from "@/server/accounts/operations";
import { deleteAccount, readAccount, updateAccount } from "@/server/accounts/service";
import { serializeAccount } from "@/server/accounts/serialize";
import { preflight } from "@/server/http/cors";
import { deleted, one } from "@/server/http/results";
import { otherMethods } from "@/server/http/method-not-allowed";
import { withApi } from "@/server/http/with-api";

// GET /account/{id} — one account of the caller
export const GET = withApi(ops.get, async ({ principal, params }) =>
  one(serializeAccount(await readAccount(principal, params.accountId))),
);

// POST /account/{id} — update the fields sent
export const POST = withApi(ops.update, async ({ principal, params, body }) =>
  one(await updateAccount(principal, params.accountId, body)),
);

// DELETE /account/{id} — delete the account and everything it owns
export const DELETE = withApi(ops.remove, async ({ principal, params }) => {
  await deleteAccount(principal, params.accountId);
  return deleted();
});

export const OPTIONS = preflight;

// Any other method: 405 with Allow naming the methods above
export const { PUT, PATCH } = otherMethods(ops.get, ops.update, ops.remove);
