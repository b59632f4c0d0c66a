import type { Environment } from "@/db/schema";
import type { FieldError } from "@/common/http/errors";
import { inboxToken } from "./address";
import { findInboxByApp } from "./queries";

// A subscription may deliver to a sandbox inbox URL only in the sandbox, and only to its own app's
// inbox: in production it is refused, so a partner's live traffic never lands in a test tool.

export async function inboxTargetErrors(
  { environment, appId }: { environment: Environment; appId: number },
  targets: { field: string; url: string | null | undefined }[],
): Promise<FieldError[]> {
  const errors: FieldError[] = [];
  let own: string | null | undefined;
  for (const { field, url } of targets) {
    const token = url ? inboxToken(url) : null;
    if (token === null) continue;
    if (environment !== "sandbox") {
      errors.push({
        fieldName: field,
        errorCode: "INVALID",
        errorDisplay:
          "The sandbox inbox receives sandbox deliveries only; production needs your own https:// receiver.",
      });
      continue;
    }
    own ??= (await findInboxByApp({ appId }))?.token ?? null;
    if (token !== own)
      errors.push({
        fieldName: field,
        errorCode: "INVALID",
        errorDisplay: "Not this app's sandbox inbox: copy the inbox URL from the partner console.",
      });
  }
  return errors;
}
