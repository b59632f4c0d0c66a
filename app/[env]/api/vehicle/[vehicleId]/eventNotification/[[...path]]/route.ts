import { notificationRoutes } from "@/app/[env]/api/_lib/event-routes";

// /vehicle/{id}/eventNotification/… — the app's notifications about a vehicle
export const { GET, POST, DELETE, PUT, PATCH, OPTIONS } = notificationRoutes("vehicle");
