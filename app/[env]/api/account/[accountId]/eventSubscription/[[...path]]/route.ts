import { subscriptionRoutes } from "@/app/[env]/api/_lib/event-routes";

// /account/{id}/eventSubscription/… — an account's subscriptions (account types, and vehicle types
// for all its vehicles) and their notifications
export const { GET, POST, DELETE, PUT, PATCH, OPTIONS } = subscriptionRoutes("account");
