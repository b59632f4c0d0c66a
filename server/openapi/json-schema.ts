import { z } from "zod";

/** A zod schema as JSON Schema draft 2020-12, the dialect of OpenAPI 3.1, for its input or its output. */
export const toSchema = (schema: z.ZodType, io: "input" | "output") =>
  z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as Record<string, unknown>;
