import { errorResponse } from "./with-api";

// The wrapper of a route that answers in the API's error body but is no API operation (no bearer
// token, no envelope): the sandbox inbox, the OpenAPI document. The handler answers its own
// Response; whatever it throws is translated by the API's errorResponse (error-body.ts), CORS
// headers included, so these answers cannot drift from the API's.

type RouteContext<P> = { params: Promise<P> };

export function withApiErrors<P>(handler: (request: Request, params: P) => Promise<Response>) {
  return async (request: Request, context: RouteContext<P>): Promise<Response> => {
    try {
      return await handler(request, await context.params);
    } catch (error) {
      return errorResponse(error);
    }
  };
}
