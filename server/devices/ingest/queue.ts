import type { Environment } from "@/db/schema";
import { writeBatch, type Submission, type SubmissionOutcome } from "./batch";

// The device gateway's path into the domain: every listener hands its decoded records here and
// acknowledges the device when the promise resolves, which is after the commit. Submissions of one
// environment are written in batches: the first goes at once, and while IN_FLIGHT batches' transactions
// are in flight the submissions that arrive wait and go together as the next one, so a thousand
// connections sending at once cost a few transactions, not a thousand (batch.ts: one lock statement,
// one read per vehicle, one write statement for all of them, one commit). No submission waits on a
// timer. A batch that fails is tried again one submission at a time, so that only the submissions at
// fault fail (their connections are closed unacknowledged, and their devices send again).

/** Submissions per transaction: a batch's statements stay small. */
const MAX_BATCH = 200;
/**
 * Batches of one environment written at once. One at a time leaves node idle while PostgreSQL writes
 * and PostgreSQL idle while node plans the next, and lets one vehicle whose row another transaction
 * holds stop every device of the environment; two overlap the halves, as the API's concurrent posts
 * do (bench:devices measures it). Two batches that name one vehicle wait for each other on its row
 * lock, taken in id order (targets.ts), as two gateway processes' do.
 */
const IN_FLIGHT = 2;

type Waiting = { submission: Submission; resolve: (outcome: SubmissionOutcome) => void; reject: (e: unknown) => void };
type Queue = { waiting: Waiting[]; running: number };
const queues = new Map<Environment, Queue>();

/** Stores a submission's records with whatever else arrived meanwhile: "stored" once committed. */
export function submitRecords(environment: Environment, submission: Submission): Promise<SubmissionOutcome> {
  const queue = queues.get(environment) ?? queues.set(environment, { waiting: [], running: 0 }).get(environment)!;
  return new Promise((resolve, reject) => {
    queue.waiting.push({ submission, resolve, reject });
    startBatches(environment, queue);
  });
}

/** Starts the waiting submissions as batches while fewer than IN_FLIGHT are being written. */
function startBatches(environment: Environment, queue: Queue): void {
  while (queue.running < IN_FLIGHT && queue.waiting.length > 0) {
    const batch = queue.waiting.splice(0, MAX_BATCH);
    queue.running += 1;
    void write(environment, batch).finally(() => {
      queue.running -= 1;
      startBatches(environment, queue);
    });
  }
}

async function write(environment: Environment, batch: Waiting[]): Promise<void> {
  try {
    const outcomes = await writeBatch(
      environment,
      batch.map((w) => w.submission),
    );
    batch.forEach((w, i) => w.resolve(outcomes[i]!));
  } catch (error) {
    if (batch.length === 1) batch[0]!.reject(error);
    else
      for (const w of batch)
        await writeBatch(environment, [w.submission]).then(([outcome]) => w.resolve(outcome!), w.reject);
  }
}
