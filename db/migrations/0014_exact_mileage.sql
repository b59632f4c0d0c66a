-- Mileage as an exact decimal to the thousandth of a mile (docs/decisions/0027-exact-mileage.md). Converting rounds the
-- binary noise away (0.30000000000000004 becomes 0.3). Values past 10,000,000 miles, which ingest now ignores
-- as readings, are held to that (vehicles) or dropped (a trip's reported mileage), so the conversion cannot fail.
ALTER TABLE "vehicles" ALTER COLUMN "mileage" SET DATA TYPE numeric(11, 3) USING least("mileage", 10000000)::numeric(11, 3);--> statement-breakpoint
ALTER TABLE "trips" ALTER COLUMN "mileage" SET DATA TYPE numeric(11, 3) USING (case when "mileage" between 0 and 10000000 then "mileage" end)::numeric(11, 3);--> statement-breakpoint
ALTER TABLE "trips" ALTER COLUMN "start_mileage" SET DATA TYPE numeric(11, 3) USING least("start_mileage", 10000000)::numeric(11, 3);--> statement-breakpoint
-- A simulation run's starting odometer was copied from the vehicle's mileage, noise included (112.60000000000001).
UPDATE "simulation_runs" SET "params" = jsonb_set("params", '{odometer}', to_jsonb(round(("params"->>'odometer')::numeric, 3)))
 WHERE jsonb_typeof("params"->'odometer') = 'number';
