import { notificationRoutes } from "@/server/subscriptions/router";

// /account/{id}/eventNotification/… — the app's notifications about an account and its vehicles
export const { GET, POST, DELETE, PUT, PATCH, OPTIONS } = notificationRoutes("account");
