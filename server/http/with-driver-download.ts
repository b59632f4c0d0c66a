import { getDriverSession, type DriverSession } from "@/server/surfaces/driver/session";
import { ApiError } from "@/common/http/errors";
import { errorBody } from "./error-body";
import { apiErrorOf } from "./refusal";

// The driver site's downloads (the access log as CSV, the data export as a ZIP): the signed-in
// driver from the session, the file as an attachment (a string, or a stream the handler feeds as
// it reads), and every error in the API's error body, like withDriver. GET only: nothing changes.

export type Download = {
  filename: string;
  contentType: string;
  body: string | ReadableStream<Uint8Array>;
  /** More headers (the export's row totals, for the page's progress). */
  headers?: Record<string, string>;
};

export function withDriverDownload(
  handler: (input: { session: DriverSession; request: Request }) => Promise<Download>,
) {
  return async (request: Request): Promise<Response> => {
    try {
      const session = await getDriverSession();
      if (!session) throw new ApiError("UNAUTHORIZED", "Sign in to continue.");
      const file = await handler({ session, request });
      return new Response(file.body, {
        status: 200,
        headers: {
          "Content-Type": file.contentType,
          "Content-Disposition": `attachment; filename="${file.filename}"`,
          "Cache-Control": "no-store",
          "X-Content-Type-Options": "nosniff",
          ...file.headers,
        },
      });
    } catch (error) {
      const answered = apiErrorOf(error, "a driver download");
      return new Response(JSON.stringify(errorBody(answered)), {
        status: answered.status,
        headers: { ...answered.headers, "Content-Type": "application/json", "Cache-Control": "no-store" },
      });
    }
  };
}
