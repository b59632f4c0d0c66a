import { changeDriverPassword } from "@/server/driver/account";
import { driverRoute, otherMethods } from "@/server/driver/route";

// POST /me/account/password — change the password ({"currentPassword", "password"})
export const POST = driverRoute(
  async ({ session, body }) => {
    await changeDriverPassword(session, await body());
    return { result: "OK" };
  },
  { write: true },
);

// Any other method: 405 in the API's error body, with Allow naming the methods above
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
