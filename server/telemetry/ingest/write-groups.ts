import type { Environment } from "@/db/schema";
import type { Sql } from "@/db/fragments";
import { writeIngest, type IngestWrite, type Written } from "./write";

// Ingest writes from many devices, grouped: while one group's statement is in flight, the writes
// that arrive wait, and go together as the next statement. A fleet's devices each post a data set
// every few seconds; one statement and one commit for every write that came in meanwhile costs
// PostgreSQL a fraction of one each (its fixed costs per statement, executor start-up and
// commit with its WAL flush, were most of a single post's), and no write waits on a timer: the
// first goes at once, the rest as soon as the database is free. Each vehicle's part of the
// statement is checked and written as if alone (writeIngest), so a write whose check fails is
// answered null like a lone one; an error fails the whole statement, and then each write of the
// group is tried alone, so that only its own caller sees it. Nothing is answered before its
// statement has committed.
//
// Grouped are the small writes, the usual post of a device, made outside a transaction (sql is
// the pool); a batch upload, a write that claims a ONETIME subscription, or one on the slow path
// (under its vehicle's row lock) goes alone.

/** Writes in flight at once, per environment: one group being written while the next gathers. */
const IN_FLIGHT = 1;
/** Enough for every connection of a busy fleet's posts; a group's statement stays small. */
const MAX_GROUP = 64;
/** A write with more data sets than this is a batch upload: efficient on its own. */
const GROUPED_SETS = 20;

type Waiting = { write: IngestWrite; resolve: (written: Written | null) => void; reject: (error: unknown) => void };
type Queue = { waiting: Waiting[]; inFlight: number };
const queues = new Map<Environment, Queue>();

/** Whether a write may share a statement with other vehicles' writes. */
export function groupable(write: IngestWrite): boolean {
  return write.sets.length <= GROUPED_SETS && !(write.events?.notifications.some((n) => n.onetime) ?? false);
}

/** The write, in the next group of its environment; what writeIngest answers for it. */
export function writeInGroup(sql: Sql, write: IngestWrite): Promise<Written | null> {
  const queue =
    queues.get(write.environment) ??
    queues.set(write.environment, { waiting: [], inFlight: 0 }).get(write.environment)!;
  return new Promise((resolve, reject) => {
    queue.waiting.push({ write, resolve, reject });
    if (queue.inFlight < IN_FLIGHT) void flush(sql, queue);
  });
}

/** Takes the next group: in order of arrival, at most one write per vehicle (a later one for the same vehicle waits for the next group). */
function nextGroup(queue: Queue): Waiting[] {
  const group: Waiting[] = [];
  const rest: Waiting[] = [];
  const vehicles = new Set<number>();
  for (const waiting of queue.waiting) {
    if (group.length < MAX_GROUP && !vehicles.has(waiting.write.vehicleId)) {
      group.push(waiting);
      vehicles.add(waiting.write.vehicleId);
    } else rest.push(waiting);
  }
  queue.waiting = rest;
  return group;
}

async function flush(sql: Sql, queue: Queue): Promise<void> {
  queue.inFlight++;
  try {
    while (queue.waiting.length > 0) {
      const group = nextGroup(queue);
      try {
        const written = await writeIngest(
          sql,
          group.map((g) => g.write),
        );
        group.forEach((g, i) => g.resolve(written[i]!));
      } catch (error) {
        if (group.length === 1) group[0]!.reject(error);
        else
          await Promise.all(
            group.map((g) => writeIngest(sql, [g.write]).then(([written]) => g.resolve(written!), g.reject)),
          );
      }
    }
  } finally {
    queue.inFlight--;
  }
}
