import { ApiError } from "@/common/http/errors";

// What the console says of something the partner may not see: 404, never saying whether it exists
// (another partner's app, or no such id). An error of the one type (common/http/errors.ts), so the
// console's wrappers translate it like any other (server/http/console-failure.ts).
export const notOwned = (what = "app") => new ApiError("NOT_FOUND", `No such ${what} in your console.`);
