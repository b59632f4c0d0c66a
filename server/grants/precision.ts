import { db } from "@/db/client";
import { ApiError } from "@/common/http/errors";
import type { LocationPrecision } from "@/common/oauth/grant-scope";
import { updateGrantPrecision } from "./grant-queries";

// A driver changes how precisely one app sees their vehicles, up to what the app asked for. One
// statement: every answer, delivery, feed page and subscription evaluation after it commits reads
// the new precision from the grant (docs/oauth.md#scopes).
export async function changeGrantPrecision(input: {
  accountId: number;
  appId: number;
  precision: LocationPrecision;
}): Promise<void> {
  const changed = await updateGrantPrecision(db(), input);
  if (!changed) throw new ApiError("FORBIDDEN", "This app does not have access to that location precision.");
}
