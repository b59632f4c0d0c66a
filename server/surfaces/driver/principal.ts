import type { DriverSession } from "@/server/surfaces/driver/session";
import { FULL_GRANT } from "@/common/oauth/grant-scope";
import type { Principal } from "@/server/api-auth/principal";

// The driver site acts as the account's owner, the way a user token of that account does: the
// vehicle, account and telemetry services decide ownership from a Principal, so the session is
// turned into the user principal of its account. No app or token stands behind it (`via:
// "driver-site"`; the app ids are 0, which no row has); the services only read `kind`, `environment`
// and `accountId` from it.
export function driverPrincipal(session: DriverSession): Principal {
  return {
    kind: "user",
    accountId: session.accountId,
    environment: session.environment,
    via: "driver-site",
    appId: 0,
    credentialId: 0,
    clientId: "wayline-driver-site",
    dataProvider: false,
    // The owner sees everything of their own account, positions precise.
    grant: FULL_GRANT,
  };
}
