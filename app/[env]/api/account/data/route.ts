import { preflight } from "@/server/http/cors";
import { list } from "@/server/http/results";
import { withApi } from "@/server/http/with-api";
import { telemetryOperations as ops } from "@/server/telemetry/operations";
import { dataOfAccount } from "@/server/telemetry/service";

export { PUT, PATCH, DELETE, POST } from "@/server/http/method-not-allowed";

// GET /account/data/ — data points of an account's vehicles (sinceLastCall)
export const GET = withApi(ops.accountData, async ({ principal, query }) => {
  const page = { limit: query.searchLimit, offset: query.searchOffset };
  const { items, total, paged } = await dataOfAccount(principal, { accountId: query.accountId, sinceLastCall: query.sinceLastCall, page });
  return list(items, total, paged ? page : { limit: items.length, offset: 0 });
});

export const OPTIONS = preflight;
