import { connect } from "@/db/client";
import { databaseConfig } from "@/db/config";
import { ApiError } from "@/common/http/errors";
import { tryExportLock } from "./queries";

// One export at a time per account, across every process of a fleet (docs/driver-site.md#download-my-data):
// an export reads all of an account's rows, and eight at once slowed every other request about five
// times. On PostgreSQL the claim is a session advisory lock on a connection opened for the export,
// outside the pool, so a long download never holds one of the pool's connections; ending that
// session, or the process dying, releases it. On the embedded database every connection shares one
// session (a session lock excludes nothing there), and one process serves HTTP: a set in memory.

const EXPORT_LOCK_CLASS = 7245002;
/** What a refused export is asked to wait: exports take seconds to minutes, and the page retries by hand. */
const EXPORT_RETRY_SECONDS = 10;

const runningHere = new Set<number>();

export type ExportClaim = { release: () => Promise<void> };

/** Claims the account's export, or throws 429 RATE_LIMITED while another of its exports runs. */
export async function claimExport(accountId: number): Promise<ExportClaim> {
  const url = databaseConfig().url;
  if (url === undefined) {
    if (runningHere.has(accountId)) throw alreadyRunning();
    runningHere.add(accountId);
    return once(async () => void runningHere.delete(accountId));
  }
  const session = connect(url, false, 1);
  const end = () => session.sql.end({ timeout: 5 });
  let held = false;
  try {
    held = await tryExportLock(session.db, { lockClass: EXPORT_LOCK_CLASS, accountId });
  } finally {
    if (!held) await end();
  }
  if (!held) throw alreadyRunning();
  return once(end);
}

const alreadyRunning = () =>
  new ApiError("RATE_LIMITED", "An export of your data is already running. Try again when it has finished.", [], {
    "Retry-After": String(EXPORT_RETRY_SECONDS),
  });

function once(release: () => Promise<void>): ExportClaim {
  let done: Promise<void> | null = null;
  return { release: () => (done ??= release().catch(() => {})) };
}

/**
 * `body`, releasing the claim when it has been read to the end, fails, or is cancelled, and when
 * `signal` (the request's) aborts: a download the client gave up on must not hold the account's
 * claim until the stream is collected.
 */
export function releasedWhenDone(body: ReadableStream<Uint8Array>, claim: ExportClaim, signal?: AbortSignal) {
  const reader = body.getReader();
  const release = () => void claim.release();
  signal?.addEventListener("abort", release, { once: true });
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await reader.read();
          if (next.done) {
            release();
            controller.close();
          } else controller.enqueue(next.value);
        } catch (error) {
          release();
          throw error;
        }
      },
      async cancel(reason) {
        release();
        await reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
