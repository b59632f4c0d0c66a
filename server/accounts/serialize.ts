import type { accounts } from "@/db/schema";
import { formatDateTime } from "@/common/http/datetime";
import type { AccountOut } from "@/common/accounts/schemas";

type AccountRow = typeof accounts.$inferSelect;

// The public shape of an account: the password hash and environment never leave the server.
export function serializeAccount(row: AccountRow): AccountOut {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    username: row.username,
    email: row.email,
    zipcode: row.zipcode,
    phone: row.phone,
    timeZone: row.timeZone,
    preferredContact: row.preferredContact,
    dateCreated: formatDateTime(row.createdAt),
  };
}
