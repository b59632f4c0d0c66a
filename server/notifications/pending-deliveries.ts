// The hand-off of new notifications to the delivery queue. Every path that makes notifications
// (ingest, account events, test notifications) ends its statement with this insert. It is written
// once, as a template without parameters that its caller's tag makes a piece of its statement:
// postgres.js's `sql` on ingest's hot path, drizzle's `sql` elsewhere (docs/architecture.md#reaching-the-database).
//
// It inserts one PENDING notification_deliveries row per active delivery of each notification's
// subscription, and that insert is the enqueue: a PENDING row is its own place in the queue
// (due now; server/delivery/queue.ts), and the statement-level trigger
// notification_deliveries_enqueue (function wayline_enqueue_notification_deliveries, last
// defined in db/migrations/0034_queue_in_pending_rows.sql) wakes the workers with one NOTIFY per
// statement, sent when the transaction commits: a committed notification is always queued and a
// rolled-back one never sends (docs/delivery.md).
//
// The deliveries are read FOR KEY SHARE, the lock a foreign key's check would take (the rows have
// no key to their delivery: migration 0032), so that no row is written for a delivery that is gone:
// one whose removal committed after this statement's snapshot is skipped (READ COMMITTED re-checks
// a locked row's newest version), and one not yet removed stays until this transaction commits,
// when its removal's statement trigger (subscription_deliveries_delete_pending) takes the new rows
// along. A delivery deactivated meanwhile is skipped the same way. The lock does not wait for edits
// of a delivery (those take FOR NO KEY UPDATE), only for its removal; rows are locked in id order,
// as server/subscriptions/queries.ts removes them, so two removals cannot deadlock with it
// (docs/delivery.md#deliveries-changed-while-notifications-are-written).

/** A tagged-template function: postgres.js's `sql` or drizzle's `sql`. */
type Tag<T> = (strings: TemplateStringsArray) => T;

/**
 * Enqueues the delivery of the notifications in the relation `n` (id, subscription_id) of the
 * statement this ends, as a piece of the caller's statement built by its own tag:
 * `enqueueDeliveries(sql)` with postgres.js's or drizzle's `sql`.
 */
export const enqueueDeliveries = <T>(
  tag: Tag<T>,
): T => tag`insert into notification_deliveries (notification_id, delivery_id)
  select n.id, d.id from n join (
    select sd.id, sd.subscription_id from subscription_deliveries sd
     where sd.subscription_id = any(array(select distinct subscription_id from n)) and sd.active
     order by sd.id
       for key share) d on d.subscription_id = n.subscription_id`;
