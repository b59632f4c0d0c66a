// Recognises a unique violation (SQLSTATE 23505) through drizzle's error wrapper, so services can
// turn the race-proof answer of a unique index into the API's 409.
export function uniqueViolation(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const e = current as { code?: string; constraint_name?: string; constraint?: string; cause?: unknown };
    if (e.code === "23505") return e.constraint_name ?? e.constraint ?? "";
    current = e.cause;
  }
  return null;
}

// Recognises a lock wait cut by lock_timeout (SQLSTATE 55P03), through drizzle's error wrapper: a
// maintenance step that gives way to requests tries again.
export function lockNotAvailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    if ((current as { code?: string }).code === "55P03") return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

// Recognises a transaction PostgreSQL ended to break a deadlock (SQLSTATE 40P01), through drizzle's
// error wrapper.
export function deadlockDetected(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    if ((current as { code?: string }).code === "40P01") return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

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
