import { z } from "zod";
import { idParam } from "@/common/http/fields";
import { accessRules } from "@/server/access-log/rules";
import { operation } from "@/common/http/operation";
import { pagingQuery } from "@/common/http/paging";
import { accountOut, createAccountBody, createdAccountOut, updateAccountBody } from "@/common/accounts/schemas";

const accountIdParams = z.object({ accountId: idParam });

export const accountOperations = {
  list: operation({
    method: "GET",
    path: "/account/",
    tag: "Accounts",
    summary: "List the accounts available to the caller",
    description:
      "A client-credentials token lists the accounts its app created or that authorized it; a user token its own account.",
    auth: "any",
    query: pagingQuery,
    access: accessRules.account,
    response: { key: "account", schema: accountOut, list: true },
  }),
  get: operation({
    method: "GET",
    path: "/account/{accountId}",
    tag: "Accounts",
    summary: "Read one account",
    auth: "any",
    params: accountIdParams,
    access: accessRules.account,
    response: { key: "account", schema: accountOut },
  }),
  create: operation({
    method: "POST",
    path: "/account/",
    tag: "Accounts",
    summary: "Create a driver account",
    description:
      "Requires a client-credentials token. The response carries accessToken.code, an authorization code " +
      "for the new account that the token endpoint exchanges without any user step.",
    auth: "client",
    body: createAccountBody,
    access: accessRules.account,
    response: { key: "account", schema: createdAccountOut },
  }),
  update: operation({
    method: "POST",
    path: "/account/{accountId}",
    tag: "Accounts",
    summary: "Update an account (fields not sent stay unchanged)",
    auth: "any",
    params: accountIdParams,
    body: updateAccountBody,
    access: accessRules.account,
    response: { key: "account", schema: accountOut },
  }),
  remove: operation({
    method: "DELETE",
    path: "/account/{accountId}",
    tag: "Accounts",
    summary: "Delete an account permanently, with all its vehicles and data",
    auth: "any",
    params: accountIdParams,
    response: "result",
  }),
};
