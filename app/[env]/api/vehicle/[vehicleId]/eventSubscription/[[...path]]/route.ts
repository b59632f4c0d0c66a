import { subscriptionRoutes } from "@/app/[env]/api/_lib/event-routes";

// /vehicle/{id}/eventSubscription/… — a vehicle's subscriptions and their notifications
export const { GET, POST, DELETE, PUT, PATCH, OPTIONS } = subscriptionRoutes("vehicle");
