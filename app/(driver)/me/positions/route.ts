import { driverRoute } from "@/server/driver/route";
import { listDriverVehicles } from "@/server/driver/vehicles";

// GET /me/positions — the signed-in driver's vehicles with their last positions (the map polls it)
export const GET = driverRoute(async ({ session }) => ({ vehicles: await listDriverVehicles(session), at: new Date().toISOString() }), { write: false });
