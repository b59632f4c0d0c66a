import { z } from "zod";
import { clearable, dateTimeOut, keep, optional, text } from "@/common/http/fields";

// Account fields on the wire (docs/api.md#accounts-and-vehicles).

const timeZones = new Set([...Intl.supportedValuesOf("timeZone"), "UTC", "Etc/UTC"]);

export const preferredContacts = ["EMAIL", "PHONE", "SMS", "MAIL"] as const;

const email = text(254).pipe(z.email("Must be an e-mail address."));
export const timeZone = text(64).refine(
  (tz) => timeZones.has(tz),
  "Must be an IANA time zone such as America/New_York.",
);
const preferredContact = z
  .string()
  .trim()
  .transform((v) => v.toUpperCase())
  .pipe(z.enum(preferredContacts, `Must be one of ${preferredContacts.join(", ")}.`));
const username = text(100).pipe(
  z
    .string()
    .min(3, "Must be at least 3 characters.")
    .regex(/^[A-Za-z0-9._@+-]+$/, "May contain letters, digits and . _ @ + - only."),
);
const password = z.string().min(8, "Must be at least 8 characters.").max(200, "Must be at most 200 characters.");
const name = text(100).pipe(z.string().min(1, "Must not be empty."));

export const createAccountBody = z.object({
  firstName: name,
  lastName: name,
  username,
  password,
  email: optional(email),
  zipcode: optional(text(20)),
  phone: optional(text(30)),
  timeZone: optional(timeZone),
  preferredContact: optional(preferredContact),
});

// Read-only members (id, dateCreated, accessToken) are not listed, so an echoed object's copies
// are dropped by zod rather than rejected (docs/api.md#field-values).
export const updateAccountBody = z.object({
  firstName: keep(name),
  lastName: keep(name),
  username: keep(username),
  password: keep(password),
  email: clearable(email),
  zipcode: clearable(text(20)),
  phone: clearable(text(30)),
  timeZone: clearable(timeZone),
  preferredContact: clearable(preferredContact),
});

export type CreateAccountInput = z.output<typeof createAccountBody>;
export type UpdateAccountInput = z.output<typeof updateAccountBody>;

export const accountOut = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  username: z.string().nullable(),
  email: z.string().nullable(),
  zipcode: z.string().nullable(),
  phone: z.string().nullable(),
  timeZone: z.string().nullable(),
  preferredContact: z.string().nullable(),
  dateCreated: dateTimeOut,
});

export const createdAccountOut = accountOut.extend({
  accessToken: z.object({
    code: z.string().describe("Authorization code for the new account, single use, valid 10 minutes."),
  }),
});

export type AccountOut = z.infer<typeof accountOut>;
