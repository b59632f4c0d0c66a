-- When a vehicle's device counts as silent (docs/devices.md#silent-devices): each batch that stores its
-- records pushes silent_at to the arrival plus DEVICE_SILENT_MINUTES, in the statement that already
-- writes its contact; the worker reports a device once silent_at has passed and clears it, so a
-- silence is reported once and the next stored record re-arms it. The partial index holds only the
-- devices still to report: the worker's claim reads the due ones in silent_at order, never every device.
ALTER TABLE "device_contacts" ADD COLUMN "stored_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "device_contacts" ADD COLUMN "silent_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "device_contacts_silent_idx" ON "device_contacts" USING btree ("silent_at") WHERE "silent_at" IS NOT NULL;
