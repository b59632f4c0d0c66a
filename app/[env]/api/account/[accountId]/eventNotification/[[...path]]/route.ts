import { notificationRoutes } from "@/app/[env]/api/_lib/event-routes";

// /account/{id}/eventNotification/… — the app's notifications about an account and its vehicles
export const { GET, POST, DELETE, PUT, PATCH, OPTIONS } = notificationRoutes("account");
