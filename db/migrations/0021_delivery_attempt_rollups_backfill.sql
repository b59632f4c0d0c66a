-- Backfill: the attempts recorded so far, rolled up as server/delivery/attempt-rollups.ts rolls up
-- new ones (buckets of 5 minutes and of 1 hour on the UTC grid; REDIRECTED legs left out; failures
-- by HTTP status or "none"; latency bins by LATENCY_BIN_BOUNDS_MS of
-- common/delivery/latency-histogram.ts, the same list).
WITH a AS (
	SELECT delivery_id, w.bucket_seconds, date_bin(make_interval(secs => w.bucket_seconds), attempted_at, timestamptz '1970-01-01 00:00:00+00') AS bucket_start, outcome = 'DELIVERED' AS delivered,
		coalesce(http_status::text, 'none') AS status,
		width_bucket(latency_ms, ARRAY[1,2,3,4,5,6,7,8,9,10,11,12,14,15,16,18,20,22,24,26,29,31,35,38,42,46,50,55,61,67,73,81,89,98,107,118,130,143,157,172,190,208,229,252,277,305,335,369,406,446,491,540,594,653,718,790,869,956,1052,1157,1272,1400,1539,1693,1863,2049,2254,2479,2727,3000,3299,3629,3992,4391,4831,5314,5845,6429,7072,7779,8557,9413,10354,11389,12528,13781,15159,16675,18342,20177,22194,24414,26855,29540,32494,35744,39318,43250,47575,52332,57566,63322,69654,76620,84281,92710,101980,112178,123396]::int[]) AS bin
	FROM delivery_attempts CROSS JOIN (VALUES (300), (3600)) AS w(bucket_seconds) WHERE outcome <> 'REDIRECTED'
), totals AS (
	SELECT delivery_id, bucket_seconds, bucket_start, count(*)::int AS attempts, (count(*) FILTER (WHERE delivered))::int AS delivered FROM a GROUP BY 1, 2, 3
), failures AS (
	SELECT delivery_id, bucket_seconds, bucket_start, jsonb_object_agg(status, n) AS failures
	FROM (SELECT delivery_id, bucket_seconds, bucket_start, status, count(*) AS n FROM a WHERE NOT delivered GROUP BY 1, 2, 3, 4) f GROUP BY 1, 2, 3
), latency AS (
	SELECT delivery_id, bucket_seconds, bucket_start, jsonb_object_agg(bin::text, n) AS latency
	FROM (SELECT delivery_id, bucket_seconds, bucket_start, bin, count(*) AS n FROM a GROUP BY 1, 2, 3, 4) l GROUP BY 1, 2, 3
)
INSERT INTO "delivery_attempt_rollups" (delivery_id, bucket_seconds, bucket_start, attempts, delivered, failures, latency)
SELECT t.delivery_id, t.bucket_seconds, t.bucket_start, t.attempts, t.delivered, coalesce(f.failures, '{}'::jsonb), l.latency
FROM totals t JOIN latency l USING (delivery_id, bucket_seconds, bucket_start) LEFT JOIN failures f USING (delivery_id, bucket_seconds, bucket_start);
