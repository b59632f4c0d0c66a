import { notificationRoutes } from "@/server/subscriptions/router";

// /vehicle/{id}/eventNotification/… — the app's notifications about a vehicle
export const { GET, POST, DELETE, PUT, PATCH, OPTIONS } = notificationRoutes("vehicle");
