// The API base itself (/v1/api, /sandbox/api, and what dot segments normalize to it): the API's 404
// error body rather than an HTML page.
export { GET, POST, PUT, PATCH, DELETE, OPTIONS } from "./[...rest]/route";
