import { z } from "zod";
import { DATE_TIME_MESSAGE, LOCAL_DATE_TIME_MESSAGE, parseDateTime, parseLocalDateTime } from "./datetime";

// Field building blocks shared by every domain's schemas.

// Numbers also arrive as numeric strings from real clients (docs/api.md#field-values).
export const numberish = z.union([
  z.number(),
  z
    .string()
    .trim()
    .regex(/^-?\d+(\.\d+)?$/, "Must be a number.")
    .transform(Number),
]);

export const integerish = z.union([
  z.number().int("Must be an integer."),
  z
    .string()
    .trim()
    .regex(/^-?\d+$/, "Must be an integer.")
    .transform(Number),
]);

export const idParam = integerish.pipe(z.number().int().min(1).max(2_147_483_647));

/** Text with a length limit; "" and whitespace count as absent where the field is optional. */
export const text = (max: number) => z.string().trim().max(max, `Must be at most ${max} characters.`);

/** A time read by `parse` (null: not one, or out of range), refused with `message`. */
const timeField = (parse: (value: string) => Date | null, message: string) =>
  z.string().transform((value, ctx) => {
    const date = parse(value);
    if (!date) {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return date;
  });

export const dateTime = timeField(parseDateTime, DATE_TIME_MESSAGE);

/** An <input type="datetime-local"> value, read as UTC (the console's time filters and forms). */
export const dateTimeLocal = timeField(parseLocalDateTime, LOCAL_DATE_TIME_MESSAGE);

/**
 * A line break, tab or other control character (C0 or DEL). A URL holding one is refused: URL
 * parsers drop tabs and line breaks silently, so the text stored and shown would not be the URL
 * checked, and a line break in a URL is a way to split a header or a log line.
 */
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
export const CONTROL_CHARACTER_MESSAGE = "Must be one line, without line breaks, tabs or other control characters.";

export const booleanish = z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]);

/** DateTime as written on the wire (for response schemas). */
export const dateTimeOut = z.string().describe("yyyyMMdd'T'HHmmss+0000").meta({ example: "20141112T195503+0000" });

// How absent, null and "" are read (docs/api.md#field-values: update bodies may echo nulls and read-only fields).

/** On create: null or "" count as not sent. */
export const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === null || (typeof v === "string" && v.trim() === "") ? undefined : v), schema.optional());

/** On update: null is ignored (echoed objects carry nulls); "" clears the field. */
export const clearable = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === null ? undefined : v), z.union([z.literal("").transform(() => null), schema]).optional());

/** On update: null is ignored and the field cannot be cleared. */
export const keep = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === null ? undefined : v), schema.optional());

/** Ids of high-volume rows (trips, data sets, data points) go past 2^31. */
export const bigIdParam = integerish.pipe(z.number().int().min(1).max(Number.MAX_SAFE_INTEGER));
