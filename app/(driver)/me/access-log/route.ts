import { otherMethods } from "@/server/http/with-driver";
import { withDriverDownload } from "@/server/http/with-driver-download";
import { accessCsvOfAccount } from "@/server/access-log/views";

// GET /me/access-log — the driver's access log of the last 90 days as CSV (one line per app, category and hour)
export const GET = withDriverDownload(async ({ session }) => ({
  filename: `wayline-access-log-${session.accountId}.csv`,
  contentType: "text/csv; charset=utf-8",
  body: await accessCsvOfAccount(session.accountId),
}));

// Any other method: 405 in the API's error body, with Allow naming the methods above
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
