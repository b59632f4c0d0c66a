ALTER TABLE "notifications" DROP CONSTRAINT "notifications_app_id_partner_apps_id_fk";
