-- App events (docs/delivery.md#app-events): an app's ACCESSREVOKED and ACCOUNTDELETED events are
-- notifications of one APP-scope subscription per app and environment, made the first time the
-- app needs it (the console sets its endpoint, or an event is written), which holds the app-event
-- endpoint as its one HTTP_POST delivery. At most one per app and environment, so two writers
-- making it at once meet here and take the same row.
CREATE UNIQUE INDEX "subscriptions_app_events_key" ON "subscriptions" USING btree ("app_id","environment") WHERE "scope" = 'APP';
