// Recognises a unique violation (SQLSTATE 23505) through drizzle's error wrapper, so services can
// turn the race-proof answer of a unique index into the API's 409.
export function uniqueViolation(error: unknown): string | null {
  const e = withSqlState(error, "23505") as { constraint_name?: string; constraint?: string } | null;
  return e ? (e.constraint_name ?? e.constraint ?? "") : null;
}

/** The PostgreSQL error in `error` or its causes (drizzle wraps the driver's), if it has this SQLSTATE. */
function withSqlState(error: unknown, code: string): { code: string } | null {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    if ((current as { code?: string }).code === code) return current as { code: string };
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

// Recognises a lock wait cut by lock_timeout (SQLSTATE 55P03): a maintenance step that gives way to
// requests tries again.
export const lockNotAvailable = (error: unknown): boolean => withSqlState(error, "55P03") !== null;

// Recognises an insert whose referenced row is gone (SQLSTATE 23503): a vehicle or account deleted
// between a request's read of it and its write.
export const foreignKeyViolation = (error: unknown): boolean => withSqlState(error, "23503") !== null;

// Recognises a transaction PostgreSQL ended to break a deadlock (SQLSTATE 40P01).
export const deadlockDetected = (error: unknown): boolean => withSqlState(error, "40P01") !== null;

/**
 * Runs `transaction` again (up to `tries` times in all) when PostgreSQL ended it to break a
 * deadlock: nothing of it was written, the other side went on, and a second try finds its locks
 * free. For a transaction whose lock order cannot match every concurrent writer's (an account's
 * deletion cascading through rows a delivery worker is recording: server/accounts/service.ts).
 */
export async function retryingDeadlocks<T>(transaction: () => Promise<T>, tries = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= tries || !deadlockDetected(error)) throw error;
    }
  }
}
