import { notificationRoutes } from "@/server/http/subscription-routes";

// /account/{id}/eventNotification/… — the app's notifications about an account and its vehicles
export const { GET, POST, DELETE, PUT, PATCH, OPTIONS } = notificationRoutes("account");
