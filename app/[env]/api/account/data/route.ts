import { preflight } from "@/server/http/cors";
import { list } from "@/server/http/results";
import { otherMethods } from "@/server/http/method-not-allowed";
import { withApi } from "@/server/http/with-api";
import { telemetryOperations as ops } from "@/server/telemetry/operations";
import { dataOfAccount } from "@/server/telemetry/service";

// GET /account/data/ — data points of an account's vehicles (sinceLastCall)
export const GET = withApi(ops.accountData, async ({ principal, query }) => {
  const page = { limit: query.searchLimit, offset: query.searchOffset };
  const { items, total, paged } = await dataOfAccount(principal, {
    accountId: query.accountId,
    sinceLastCall: query.sinceLastCall,
    page,
  });
  return list(items, total, paged ? page : { limit: items.length, offset: 0 });
});

export const OPTIONS = preflight;

// Any other method: 405 with Allow naming the methods above
export const { PUT, PATCH, DELETE, POST } = otherMethods(ops.accountData);
