import { subscriptionRoutes } from "@/app/[env]/api/_lib/event-routes";

// /system/eventSubscription/… — AUTHORIZATIONSTATUS subscriptions (client-credentials tokens)
export const { GET, POST, DELETE, PUT, PATCH, OPTIONS } = subscriptionRoutes("system");
