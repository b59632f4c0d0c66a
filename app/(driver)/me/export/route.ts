import { otherMethods } from "@/server/http/with-driver";
import { withDriverDownload } from "@/server/http/with-driver-download";
import { exportDriverData } from "@/server/surfaces/driver/export";

// GET /me/export — "Download my data": a ZIP of everything of the driver's, streamed as it is read;
// the row totals in headers ahead of it, for the page's progress; one at a time per account (else 429)
export const GET = withDriverDownload(async ({ session, request }) => {
  const data = await exportDriverData(session, request.signal);
  return {
    filename: data.filename,
    contentType: "application/zip",
    body: data.body,
    headers: {
      "X-Export-Data-Points": String(data.totals.dataPoints),
      "X-Export-Trips": String(data.totals.trips),
      "X-Export-Notifications": String(data.totals.notifications),
      "X-Export-Vehicles": String(data.totals.vehicles),
    },
  };
});

// Any other method: 405 in the API's error body, with Allow naming the methods above
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
