import { driverRoute } from "@/server/driver/route";
import { addDriverVehicle } from "@/server/driver/vehicles";

// POST /me/vehicles — add a vehicle to the signed-in driver's account
export const POST = driverRoute(async ({ session, body }) => ({ vehicle: await addDriverVehicle(session, await body()) }), { write: true });
