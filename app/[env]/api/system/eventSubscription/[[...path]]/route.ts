import { subscriptionRoutes } from "@/server/http/subscription-routes";

// /system/eventSubscription/… — AUTHORIZATIONSTATUS subscriptions (client-credentials tokens)
export const { GET, POST, DELETE, PUT, PATCH, OPTIONS } = subscriptionRoutes("system");
