import { notFound, redirect } from "next/navigation";
import { getDriverSession, type DriverSession } from "@/server/surfaces/driver/session";
import { ApiError } from "@/common/http/errors";
import { bigIdParam } from "@/common/http/fields";

// Page glue of the driver site: a page needs a signed-in driver (else the sign-in page, coming
// back here afterwards), and a service's NOT_FOUND (an unknown id, or another account's) is the
// site's 404 page.

export async function requireDriver(path: string): Promise<DriverSession> {
  const session = await getDriverSession();
  if (!session) redirect(`/login?callbackUrl=${encodeURIComponent(path)}`);
  return session;
}

export async function orNotFound<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof ApiError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
}

/** A numeric id from the URL; anything else names nothing. */
export function idOrNotFound(raw: string): number {
  const parsed = bigIdParam.safeParse(raw);
  if (!parsed.success) notFound();
  return parsed.data;
}
