import { subscriptionRoutes } from "@/server/subscriptions/router";

// /system/eventSubscription/… — AUTHORIZATIONSTATUS subscriptions (client-credentials tokens)
export const { GET, POST, DELETE, PUT, PATCH, OPTIONS } = subscriptionRoutes("system");
