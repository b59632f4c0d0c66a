import type { z } from "zod";
import type { AccessRule } from "@/common/access/categories";

// An API operation described once: the route wrapper parses with these schemas and the OpenAPI
// document is generated from the same objects.
type Auth = "client" | "user" | "any";

export type Operation<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
> = {
  method: "GET" | "POST" | "DELETE";
  /** OpenAPI path below the environment's base, e.g. "/vehicle/{vehicleId}". */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  auth: Auth;
  params?: P;
  query?: Q;
  body?: B;
  /** What the OpenAPI document shows for the body, where the parsing schema cannot say it. */
  bodyDoc?: z.ZodType;
  /**
   * The envelope member and its schema; "result" for DELETE's {"result":"OK"}. `members`: more
   * envelope members beside it (the event feed's nextCursor); totalRecords is then the page's size.
   * `stream`: the answer is Server-Sent Events (GET /eventFeed/stream), each event's data `schema`.
   */
  response:
    | {
        key: string;
        schema: z.ZodType;
        list?: boolean;
        members?: Record<string, z.ZodType>;
        stream?: "text/event-stream";
      }
    | "result";
  /**
   * How an answer counts in the driver's access log: the rule for each item it carries
   * (server/access-log/rules.ts). Without it the answer carries none of a driver's data.
   */
  access?: AccessRule;
};

export function operation<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(
  op: Operation<P, Q, B>,
): Operation<P, Q, B> {
  return op;
}
