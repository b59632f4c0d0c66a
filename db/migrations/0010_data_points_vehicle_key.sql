ALTER TABLE "data_points" DROP CONSTRAINT "data_points_vehicle_id_vehicles_id_fk";
